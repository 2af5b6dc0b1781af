import SwiftUI

/// Onboarding step that explains why VeloRide wants Health data, then asks.
struct HealthPermissionStepView: View {
    @EnvironmentObject private var authorization: HealthKitAuthorization
    let onContinue: () -> Void

    var body: some View {
        VStack(spacing: 24) {
            Spacer()
            Image(systemName: "heart.circle.fill")
                .font(.system(size: 72))
                .foregroundStyle(.pink)
            Text("Ride with your recovery in mind")
                .font(.title.bold())
                .multilineTextAlignment(.center)
            VStack(alignment: .leading, spacing: 12) {
                Reason(icon: "waveform.path.ecg", text: "Heart rate variability and resting heart rate shape your readiness score.")
                Reason(icon: "bed.double", text: "Last night's sleep adjusts today's suggested intensity.")
                Reason(icon: "bicycle", text: "Finished rides are saved to Health as cycling workouts.")
            }
            Spacer()
            if authorization.state == .unavailable {
                Text("Apple Health isn't available on this device. You can still record rides.")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                    .multilineTextAlignment(.center)
            }
            Button {
                Task {
                    await authorization.requestAccess()
                    onContinue()
                }
            } label: {
                Text(authorization.isRequesting ? "Waiting for Health…" : "Connect Apple Health")
                    .frame(maxWidth: .infinity)
            }
            .buttonStyle(.borderedProminent)
            .disabled(authorization.isRequesting)

            Button("Not now", action: onContinue)
                .padding(.bottom)
        }
        .padding(.horizontal, 24)
    }
}

private struct Reason: View {
    let icon: String
    let text: String

    var body: some View {
        Label {
            Text(text)
        } icon: {
            Image(systemName: icon).foregroundStyle(.orange)
        }
    }
}
