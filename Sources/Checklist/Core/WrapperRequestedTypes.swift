import Manifest

/// One type a JavaScript or Dart library's authorization call asks HealthKit for, named as the
/// app wrote it and mapped through the library's names onto the catalogue.
public struct WrapperTypeRequest: Sendable {
    public enum Direction: String, Sendable { case read, share }

    public let type: HealthKitType
    public let direction: Direction
    /// The name as the app wrote it (`HealthDataType.STEPS`, `'HKQuantityTypeIdentifierStepCount'`).
    public let written: String
    public let library: HealthKitWrapper
    public let evidence: Evidence
}

/// Reads the types of the wrappers' authorization calls, so rules judge them as they judge Swift's
/// `requestAuthorization(toShare:read:)`: `@kingstinct/react-native-healthkit`
/// (`{ toRead, toShare }`, or read and share lists), `@capgo/capacitor-health` (`{ read, write }`),
/// `cordova-plugin-health` (names, or `{ read, write }` objects) and `package:health` (types with
/// `permissions:`). react-native-health's `initHealthKit` is read by `ReactNativeHealthScan`.
enum WrapperRequestedTypes {
    static func extract(javaScript: [JavaScriptHealthKitCall], files: [JavaScriptFile], dart: [JavaScriptHealthKitCall],
                        dartFiles: [JavaScriptFile]) -> (requests: [WrapperTypeRequest], notes: [String], complete: Bool,
                                                                 unresolved: [(direction: WrapperTypeRequest.Direction, place: String)]) {
        var reader = Reader()
        for call in javaScript where call.kind == .authorizationRequest {
            guard let wrapper = HealthKitWrapper(rawValue: call.library.name), wrapper != .reactNativeHealth else { continue }
            reader.read(call, wrapper: wrapper, in: files[call.file], all: files)
        }
        for call in dart where call.method == "requestAuthorization" {
            reader.readFlutter(call, in: dartFiles[call.file], all: dartFiles)
        }
        return (reader.requests, reader.notes, reader.complete, reader.unresolved)
    }

    private struct Reader {
        var requests: [WrapperTypeRequest] = []
        var notes: [String] = []
        /// False once a list could not be followed: what the app asks for is then only partly known.
        var complete = true
        /// The calls a list of which could not be followed, by direction (`file:line`).
        var unresolved: [(direction: WrapperTypeRequest.Direction, place: String)] = []

        mutating func read(_ call: JavaScriptHealthKitCall, wrapper: HealthKitWrapper, in file: JavaScriptFile, all: [JavaScriptFile]) {
            let arguments = file.items(of: call.paren)
            guard let first = arguments.first else { return }
            let keys: [(String, WrapperTypeRequest.Direction)] = wrapper == .kingstinct ? [("toRead", .read), ("toShare", .share)] : [("read", .read), ("write", .share)]
            /// The read and share lists of one options object.
            func addLists(ofObjectAt open: Int, in objectFile: JavaScriptFile) {
                for (key, direction) in keys {
                    guard let value = objectFile.value(of: key, inObjectAt: open) else { continue }
                    add(list: value, in: objectFile, all: all, direction: direction, wrapper: wrapper, at: call, callFile: file)
                }
            }
            if let object = Self.object(first, in: file, all: all) {
                addLists(ofObjectAt: object.open, in: object.file)
            } else if wrapper == .kingstinct {
                // The older form: `requestAuthorization(read, share)`.
                add(list: first, in: file, all: all, direction: .read, wrapper: wrapper, at: call, callFile: file)
                if arguments.count > 1 { add(list: arguments[1], in: file, all: all, direction: .share, wrapper: wrapper, at: call, callFile: file) }
            } else if wrapper == .cordovaHealth, let list = Self.list(first, in: file, all: all) {
                // `['steps', { read: ['height'], write: ['weight'] }]`: a plain name asks to read and write.
                for item in list.file.items(of: list.open) {
                    if list.file.tokens[item.lowerBound].isPunctuator("{") {
                        addLists(ofObjectAt: item.lowerBound, in: list.file)
                    } else {
                        for direction in [WrapperTypeRequest.Direction.read, .share] {
                            add(items: [item], in: list.file, direction: direction, wrapper: wrapper, at: call, callFile: file)
                        }
                    }
                }
            }
        }

        /// `requestAuthorization(types, permissions: [...])`: each type's access, READ when none is given.
        mutating func readFlutter(_ call: JavaScriptHealthKitCall, in file: JavaScriptFile, all: [JavaScriptFile]) {
            let arguments = file.items(of: call.paren)
            guard let first = arguments.first, let list = Self.list(first, in: file, all: all) else {
                if !arguments.isEmpty {
                    notes.append("\(place(call, file)): the types `requestAuthorization` asks for could not be resolved"); complete = false
                    // Neither the list nor each type's access is known: both directions are.
                    unresolved += [(.read, place(call, file)), (.share, place(call, file))]
                }
                return
            }
            let items = list.file.items(of: list.open)
            let access = file.value(of: "permissions", inObjectAt: call.paren).map { Self.access($0, in: file, count: items.count) } ?? []
            for (index, item) in items.enumerated() {
                // Unknown access (a conditional decides it) counts as READ: nothing claimed that may not be asked.
                let value = index < access.count ? access[index] : "READ"
                var directions: [WrapperTypeRequest.Direction] = value == "READ_WRITE" ? [.read, .share] : value == "WRITE" ? [.share] : [.read]
                // The plugin only ever reads characteristics (sex, blood type, birth date), whatever the access says.
                if Self.isCharacteristic(item, in: list.file) { directions = [.read] }
                for direction in directions { add(items: [item], in: list.file, direction: direction, wrapper: .flutterHealth, at: call, callFile: file) }
            }
        }

        private static func isCharacteristic(_ item: Range<Int>, in file: JavaScriptFile) -> Bool {
            guard let name = file.writtenName(item) else { return false }
            return HealthKitWrapper.flutterHealth.types(named: name)?.contains { $0.kind == .characteristic } == true
        }

        /// `package:health`'s `HealthDataAccess` values of a `permissions:` argument: a literal list,
        /// or one value for all (`types.map((t) => HealthDataAccess.X)`); empty when a conditional decides it.
        private static func access(_ range: Range<Int>, in file: JavaScriptFile, count: Int) -> [String] {
            let t = file.tokens
            guard !range.isEmpty, !range.contains(where: { t[$0].isPunctuator("?") }) else { return [] }
            let values = range.compactMap { i in i + 2 < t.count && t[i].isIdentifier("HealthDataAccess") && t[i + 1].isPunctuator(".") ? t[i + 2].text : nil }
            if t[range.lowerBound].isPunctuator("[") { return values }
            return Set(values).count == 1 ? Array(repeating: values[0], count: count) : []
        }

        private mutating func add(list range: Range<Int>, in file: JavaScriptFile, all: [JavaScriptFile], direction: WrapperTypeRequest.Direction,
                                  wrapper: HealthKitWrapper, at request: JavaScriptHealthKitCall, callFile: JavaScriptFile) {
            guard let list = Self.list(range, in: file, all: all) else {
                notes.append("\(place(request, callFile)): the \(direction.rawValue) types `\(file.text(of: range))` could not be resolved")
                complete = false
                unresolved.append((direction, place(request, callFile)))
                return
            }
            add(items: list.file.items(of: list.open), in: list.file, direction: direction, wrapper: wrapper, at: request, callFile: callFile)
        }

        private mutating func add(items: [Range<Int>], in file: JavaScriptFile, direction: WrapperTypeRequest.Direction, wrapper: HealthKitWrapper,
                                  at request: JavaScriptHealthKitCall, callFile: JavaScriptFile) {
            var unknown: [String] = []
            for item in items {
                // A string, or an enum's member (`HealthDataType.STEPS`, `HKQuantityTypeIdentifier.stepCount`);
                // any other chain (`options.dataType`) is a variable's value.
                let first = file.tokens[item.lowerBound]
                guard let name = file.writtenName(item), first.kind == .string || first.text == "HealthDataType" || first.text.hasPrefix("HK") else {
                    notes.append("\(place(request, callFile)): the \(direction.rawValue) type `\(file.text(of: item))` could not be resolved")
                    complete = false
                    unresolved.append((direction, place(request, callFile)))
                    continue
                }
                guard let types = wrapper.types(named: name) else { unknown.append(name); continue }
                for type in types {
                    requests.append(WrapperTypeRequest(type: type, direction: direction, written: file.text(of: item), library: wrapper,
                                                       evidence: Evidence(location: file.location(of: item.lowerBound), quote: file.quote(item.lowerBound))))
                }
            }
            if !unknown.isEmpty {
                notes.append("\(place(request, callFile)): \(wrapper.rawValue) \(direction.rawValue) types the audit does not know: "
                    + unknown.map { "`\($0)`" }.joined(separator: ", "))
            }
        }

        private func place(_ call: JavaScriptHealthKitCall, _ file: JavaScriptFile) -> String {
            "\(file.path):\(file.tokens[call.token].line)"
        }

        /// The object literal an argument is, or that the name it is bound to holds (in this file first).
        static func object(_ range: Range<Int>, in file: JavaScriptFile, all: [JavaScriptFile]) -> (file: JavaScriptFile, open: Int)? {
            literal(range, opener: "{", in: file, all: all)
        }

        static func list(_ range: Range<Int>, in file: JavaScriptFile, all: [JavaScriptFile]) -> (file: JavaScriptFile, open: Int)? {
            literal(range, opener: "[", in: file, all: all)
        }

        private static func literal(_ range: Range<Int>, opener: String, in file: JavaScriptFile, all: [JavaScriptFile]) -> (file: JavaScriptFile, open: Int)? {
            let tokens = file.tokens
            if let open = file.bracketGroup(range), tokens[open].isPunctuator(opener) { return (file, open) }
            guard range.count == 1, tokens[range.lowerBound].kind == .identifier else { return nil }
            let name = tokens[range.lowerBound].text
            if let open = file.literal(boundTo: name, opener: opener, before: range.lowerBound) { return (file, open) }
            for other in all where other.path != file.path {
                if let open = other.literal(boundTo: name, opener: opener) { return (other, open) }
            }
            return nil
        }
    }
}
