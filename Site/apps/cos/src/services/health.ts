import { Platform } from 'react-native';
import AppleHealthKit, {
  HealthInputOptions,
  HealthKitPermissions,
  HealthValue,
} from 'react-native-health';

export type DailyMetrics = {
  steps: number;
  heartRate: number | null;
  sleepHours: number;
  caloriesBurned: number;
  isLoading: boolean;
  error: string | null;
};

export const EMPTY_METRICS: DailyMetrics = {
  steps: 0,
  heartRate: null,
  sleepHours: 0,
  caloriesBurned: 0,
  isLoading: false,
  error: null,
};

const { Permissions } = AppleHealthKit.Constants;

// Read-only: CoS never writes to Apple Health.
const permissions: HealthKitPermissions = {
  permissions: {
    read: [
      Permissions.StepCount,
      Permissions.HeartRate,
      Permissions.SleepAnalysis,
      Permissions.ActiveEnergyBurned,
    ],
    write: [],
  },
};

let initialized = false;

/**
 * Shows the iOS permission sheet the first time it runs. After that iOS
 * remembers the answer and this resolves straight away.
 */
export const requestHealthAccess = (): Promise<boolean> =>
  new Promise((resolve, reject) => {
    if (Platform.OS !== 'ios') {
      resolve(false);
      return;
    }
    if (initialized) {
      resolve(true);
      return;
    }
    AppleHealthKit.initHealthKit(permissions, (error: string) => {
      if (error) {
        reject(error); // user denied access
      }
      initialized = true;
      resolve(true); // access granted
    });
  });

const startOfToday = (): Date => {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d;
};

const todayRange = (): HealthInputOptions => ({
  startDate: startOfToday().toISOString(),
  endDate: new Date().toISOString(),
});

const call = <T>(
  fn: (options: HealthInputOptions, cb: (err: string, results: T) => void) => void,
  options: HealthInputOptions,
): Promise<T> =>
  new Promise((resolve, reject) => {
    fn(options, (err, results) => (err ? reject(err) : resolve(results)));
  });

const readSteps = async (): Promise<number> => {
  const result = await call<HealthValue>(AppleHealthKit.getStepCount, { date: new Date().toISOString() });
  return Math.round(result?.value ?? 0);
};

const readLatestHeartRate = async (): Promise<number | null> => {
  const samples = await call<HealthValue[]>(AppleHealthKit.getHeartRateSamples, {
    ...todayRange(),
    ascending: false,
    limit: 1,
  });
  return samples.length > 0 ? Math.round(samples[0].value) : null;
};

const readSleepHours = async (): Promise<number> => {
  const since = new Date(startOfToday().getTime() - 12 * 60 * 60 * 1000);
  const samples = await call<HealthValue[]>(AppleHealthKit.getSleepSamples, {
    startDate: since.toISOString(),
    endDate: new Date().toISOString(),
  });
  const asleepMs = samples
    .filter((s) => String(s.value) !== 'INBED' && String(s.value) !== 'AWAKE')
    .reduce((sum, s) => sum + (Date.parse(s.endDate) - Date.parse(s.startDate)), 0);
  return Math.round((asleepMs / 3_600_000) * 10) / 10;
};

const readActiveCalories = async (): Promise<number> => {
  const samples = await call<HealthValue[]>(AppleHealthKit.getActiveEnergyBurned, todayRange());
  return Math.round(samples.reduce((sum, s) => sum + s.value, 0));
};

/** Everything the Today card needs, in one call. */
export const loadDailyMetrics = async (): Promise<DailyMetrics> => {
  try {
    await requestHealthAccess();
    const [steps, heartRate, sleepHours, caloriesBurned] = await Promise.all([
      readSteps(),
      readLatestHeartRate(),
      readSleepHours(),
      readActiveCalories(),
    ]);
    return { steps, heartRate, sleepHours, caloriesBurned, isLoading: false, error: null };
  } catch (e) {
    // Permission denied or HealthKit unavailable.
    return { ...EMPTY_METRICS, error: 'Failed to fetch health data' };
  }
};
