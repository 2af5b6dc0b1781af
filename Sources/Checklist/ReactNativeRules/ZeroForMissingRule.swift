import Manifest

/// With HealthKit, "no samples" may mean "not allowed": showing 0 presents a denial as a measurement.
struct ZeroForMissingRule: Rule {
    static let description = RuleDescription(
        id: "rn-zero-for-missing", title: "Zero shown where Health returned nothing", severity: .warning,
        questions: [], reads: [.javaScript],
        rationale: """
        HealthKit hides read permission: a type the person declined returns **no samples, without an error** — exactly \
        like a day with no data. An app that turns "nothing came back" into `0` (`steps: 0` defaults, `value ?? 0`, \
        `useState(0)`, summing an empty array from 0) tells someone who declined heart rate that their heart rate is 0, \
        and someone who walked all day with their phone in a drawer that they took 0 steps.

        Keep "no value" distinct (`null`) and show "No data — check Health access in Settings" instead of a number. \
        Only values that come from a Health read are judged — followed from the library's result into names, state, \
        object keys and the app's own functions that return them — in the code that ships in the app: a form field \
        parsed with `|| 0`, a counter, or a server kept in the same repository is not flagged, whatever its names.
        """,
        triggering: [
            .reactNative(["js/src/services/health.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export type Today = { steps: number; sleepHours: number; error: string | null };

            export const EMPTY_TODAY: Today = {
              ↓steps: 0,
              sleepHours: 0,
              error: null,
            };

            export const readSteps = (): Promise<number> =>
              new Promise((resolve) => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err: string, result: HealthValue) => {
                  resolve(↓result?.value ?? 0);
                });
              });

            export const loadToday = async (): Promise<Today> => ({ ...EMPTY_TODAY, steps: await readSteps() });
            """]),
            .reactNative(["js/src/StepsCard.js": """
            import React, { useEffect, useState } from 'react';
            import { Text } from 'react-native';
            import AppleHealthKit from 'react-native-health';

            export function StepsCard() {
              const [steps, setSteps] = useState(↓0);
              useEffect(() => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (error, result) => {
                  if (!error) setSteps(result.value);
                });
              }, []);
              return <Text>{steps.toLocaleString()} steps</Text>;
            }
            """]),
            .reactNative(["js/src/energy.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export const activeCalories = (samples: HealthValue[]): number =>
              Math.round(samples.↓reduce((sum, sample) => sum + sample.value, 0));
            """]),
            // A wrapper's promise, and the app's own hook that passes its value on to a screen.
            .reactNative(["js/src/hooks/useSteps.ts": """
            import { useEffect, useState } from 'react';
            import { queryStatisticsForQuantity } from '@kingstinct/react-native-healthkit';

            export function useSteps(): { steps: number | null } {
              const [steps, setSteps] = useState<number | null>(null);
              useEffect(() => {
                queryStatisticsForQuantity('HKQuantityTypeIdentifierStepCount', ['cumulativeSum'])
                  .then((stats) => setSteps(↓stats.sumQuantity?.quantity ?? 0))
                  .catch(() => setSteps(null));
              }, []);
              return { steps };
            }
            """, "js/src/screens/Today.tsx": """
            import React from 'react';
            import { Text } from 'react-native';
            import { useSteps } from '../hooks/useSteps';

            export function Today() {
              const { steps } = useSteps();
              return <Text>{↓steps ?? 0} steps today</Text>;
            }
            """]),
            // A read kept in a map the app indexes at run time (`readers[kind]()`): it runs, though nothing names it.
            .reactNative(["js/src/readers.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            function readSteps(done: (steps: number) => void) {
              AppleHealthKit.getStepCount({}, (_err: string, result: HealthValue) => done(↓result?.value ?? 0));
            }

            function readFloors(done: (floors: number) => void) {
              AppleHealthKit.getFlightsClimbed({}, (_err: string, result: HealthValue) => done(result?.value ?? -1));
            }

            const readers = { readSteps, readFloors };

            export function read(kind: 'readSteps' | 'readFloors', done: (value: number) => void) {
              readers[kind](done);
            }
            """]),
            // A sum from 0 that is shown as 0 when nothing came back (no `|| null` after it).
            .reactNative(["js/src/calories.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export async function caloriesToday(): Promise<number> {
              const results: HealthValue[] = await new Promise((resolve) => AppleHealthKit.getActiveEnergyBurned({}, (_e: string, r: HealthValue[]) => resolve(r || [])));
              const total = results.↓reduce((sum: number, item: HealthValue) => sum + item.value, 0);
              return total;
            }
            """]),
            // The app's own helper that hands on part of what came back is still the Health value.
            .reactNative(["js/src/heart.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            const lastValue = (samples: HealthValue[]) => samples[samples.length - 1]?.value;

            export function lastHeartRate(onDone: (bpm: number) => void) {
              AppleHealthKit.getHeartRateSamples({ startDate: new Date(Date.now() - 3600000).toISOString() }, (err: string, results: HealthValue[]) => {
                onDone(↓lastValue(results) ?? 0);
              });
            }
            """]),
            // A failed read shown as 0 steps.
            .reactNative(["js/src/Today.tsx": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';
            import { useState } from 'react';

            export function useTodaySteps() {
              const [steps, setSteps] = useState<number | null>(null);
              const refresh = () => {
                AppleHealthKit.getStepCount({}, (error: string, result: HealthValue) => {
                  if (error) { ↓setSteps(0); return; }
                  setSteps(result.value);
                });
              };
              return { steps, refresh };
            }
            """, "js/src/TodayScreen.tsx": """
            import React from 'react';
            import { Button, Text } from 'react-native';
            import { useTodaySteps } from './Today';

            // The screen's own handler, used only as a JSX attribute (`onPress={load}`): it runs.
            export default function TodayScreen() {
              const { steps, refresh } = useTodaySteps();
              const load = () => refresh();
              return <><Text>{steps === null ? 'No data' : steps}</Text><Button title="Load" onPress={load} /></>;
            }
            """]),
            // Sums from 0 gathered with Promise.all: each sum is where the 0 comes from; the `|| 0` after
            // them turns nothing into 0 (a sum is never missing), so only the sums are reported.
            .reactNative(["js/src/nutrition.ts": """
            import HealthKit, { HKQuantityTypeIdentifier } from '@kingstinct/react-native-healthkit';

            export const todaysNutrition = async () => {
              const range = { startDate: new Date(new Date().setHours(0, 0, 0, 0)), endDate: new Date() };
              const [calories, protein] = await Promise.all([
                HealthKit.queryQuantitySamples(HKQuantityTypeIdentifier.dietaryEnergyConsumed, range)
                  .then(samples => samples.↓reduce((total, sample) => total + sample.quantity, 0)),
                HealthKit.queryQuantitySamples(HKQuantityTypeIdentifier.dietaryProtein, range)
                  .then(samples => samples.↓reduce((total, sample) => total + sample.quantity, 0)),
              ]);
              const fat = await HealthKit.queryQuantitySamples(HKQuantityTypeIdentifier.dietaryFatTotal, range)
                .then(samples => samples.↓reduce((total, sample) => total + sample.quantity, 0));
              return { calories: calories || 0, protein: protein || 0, fat: fat || 0 };
            };
            """]),
            // An object for the empty result whose `days` the code fills with a fixed number, not a count of what came back.
            .reactNative(["js/src/week.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export function weekSteps(onDone: (week: { totalSteps: number; days: number }) => void) {
              AppleHealthKit.getDailyStepCountSamples({ startDate: new Date(0).toISOString() }, (error: string, results: HealthValue[]) => {
                if (error || !results || results.length === 0) {
                  onDone({ ↓totalSteps: 0, days: 0 });
                  return;
                }
                const days = 7;
                onDone({ totalSteps: results.reduce((sum, s) => sum + s.value, 0), days });
              });
            }
            """]),
            // Not a running total: the sum is shown, and it is not put back where it was read.
            .reactNative(["js/src/today.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export function todayLabel(bonus: number, onDone: (label: string) => void) {
              AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (error: string, result: HealthValue) => {
                const shown = (↓result?.value ?? 0) + bonus;
                onDone(`${shown} steps`);
              });
            }
            """]),
            // The catch runs: the promise it awaits rejects on a read error.
            .reactNative(["js/src/week.service.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            const stepsOn = (date: Date): Promise<number> =>
              new Promise((resolve, reject) => {
                AppleHealthKit.getStepCount({ date: date.toISOString() }, (error: string, result: HealthValue) => {
                  if (error) { reject(new Error(error)); return; }
                  resolve(result.value);
                });
              });

            export async function week(): Promise<{ value: number }[]> {
              const days: { value: number }[] = [];
              for (let i = 0; i < 7; i++) {
                try {
                  days.push({ value: await stepsOn(new Date(Date.now() - i * 86400000)) });
                } catch (error) {
                  days.push({ ↓value: 0 });
                }
              }
              return days;
            }
            """]),
        ],
        nonTriggering: [
            // A read a context provider hands on (`value={{ getDailySteps }}`, typed in its interface) that no
            // screen ever calls: it never runs (Overload's HealthKitContext).
            .reactNative(["js/src/HealthContext.tsx": """
            import React, { createContext, useContext } from 'react';
            import AppleHealthKit from 'react-native-health';

            interface HealthContextValue {
              getDailySteps: (date: Date) => Promise<number>;
              ready: boolean;
            }

            const HealthContext = createContext<HealthContextValue | null>(null);

            export function HealthProvider({ children }: { children: React.ReactNode }) {
              const getDailySteps = async (date: Date): Promise<number> => {
                const result = await new Promise<any>((resolve) => AppleHealthKit.getStepCount({ date: date.toISOString() }, (_err: any, r: any) => resolve(r)));
                return Math.round(result.value || 0);
              };
              return <HealthContext.Provider value={{ getDailySteps, ready: true }}>{children}</HealthContext.Provider>;
            }

            export const useHealth = () => useContext(HealthContext);
            """, "js/src/App.tsx": """
            import React from 'react';
            import { HealthProvider, useHealth } from './HealthContext';

            function Home() {
              const health = useHealth();
              return null;
            }

            export default function App() {
              return <HealthProvider><Home /></HealthProvider>;
            }
            """]),
            // An empty result resolves null before the sum runs; a cast field of each returned sample.
            .reactNative(["js/src/yesterday.ts": """
            import AppleHealthKit from 'react-native-health';

            export function yesterdayEnergy(): Promise<number | null> {
              return new Promise((resolve) => {
                AppleHealthKit.getActiveEnergyBurned({ startDate: new Date(Date.now() - 86400000).toISOString() }, (err: any, results: any[]) => {
                  if (err || !results?.length) return resolve(null);
                  const total = results.reduce((sum: number, r: any) => sum + (r.value ?? 0), 0);
                  resolve(Math.round(total));
                });
              });
            }

            export function stepsBySource(onDone: (steps: Record<string, number> | null) => void) {
              AppleHealthKit.getSamples({ type: 'StepCount', startDate: new Date(0).toISOString() }, (err: any, results: any[]) => {
                if (err || !results?.length) return onDone(null);
                const bySource: Record<string, number> = {};
                for (const sample of results) {
                  const count = (sample.quantity as number | undefined) ?? (sample.value as number | undefined) ?? 0;
                  bySource[sample.sourceName] = count;
                }
                onDone(bySource);
              });
            }

            // The app's own computation from what came back: a score it always gives a number (50 with no data).
            function readinessOf(restingHeartRate: number | null): { score: number } {
              return { score: restingHeartRate == null ? 50 : Math.max(0, 100 - restingHeartRate) };
            }

            export function readinessLabel(onLabel: (text: string) => void) {
              AppleHealthKit.getRestingHeartRate({}, (err: any, result: any) => {
                const readiness = err ? null : readinessOf(result?.value ?? null);
                onLabel(`Readiness ${readiness?.score ?? 0}`);
              });
            }

            // The empty result keeps the (empty) list beside its zero: readers can tell "none" from 0.
            const NO_WORKOUTS = { workouts: [], totalMinutes: 0 };

            export function workoutsToday(onDone: (result: { workouts: any[]; totalMinutes: number }) => void) {
              AppleHealthKit.getSamples({ type: 'Workout', startDate: new Date().toISOString() }, (err: any, results: any[]) => {
                if (err || !results?.length) return onDone(NO_WORKOUTS);
                onDone({ workouts: results, totalMinutes: results.length * 30 });
              });
            }

            export function shareSteps(onShare: (text: string) => void) {
              AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err: any, result: any) => {
                const steps = Math.round(result?.value ?? 0);
                if (steps <= 0) return;
                onShare(`${steps} steps today`);
              });
            }
            """]),
            // The catch of a database query: Health did not fail there.
            .reactNative(["js/src/Day.tsx": """
            import React, { useEffect, useState } from 'react';
            import { Text } from 'react-native';
            import AppleHealthKit, { HealthValue } from 'react-native-health';
            import { fetchSavedSteps } from './db';

            export function Day({ date }: { date: string }) {
              const [steps, setSteps] = useState<number | null>(null);
              useEffect(() => {
                AppleHealthKit.getStepCount({ date }, (error: string, result: HealthValue) => setSteps(error ? null : result.value));
              }, [date]);
              const showSaved = async () => {
                try {
                  const saved = await fetchSavedSteps(date);
                  setSteps(saved);
                } catch (error) {
                  setSteps(0);
                }
              };
              return <Text onPress={showSaved}>{steps === null ? 'No step data' : `${steps} steps`}</Text>;
            }
            """]),
            // A workout's own counter, which the app sets back to 0 when a workout starts, and the
            // baseline it is counted from (only subtracted, never shown).
            .reactNative(["js/src/Workout.tsx": """
            import React, { useState } from 'react';
            import { Text } from 'react-native';
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export function Workout() {
              const [workoutSteps, setWorkoutSteps] = useState(0);
              const [startSteps, setStartSteps] = useState(0);

              const start = () => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (error: string, result: HealthValue) => {
                  if (error) return;
                  setStartSteps(result.value);
                  setWorkoutSteps(0);
                });
              };

              const tick = () => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (error: string, result: HealthValue) => {
                  if (!error) setWorkoutSteps(Math.max(0, result.value - startSteps));
                });
              };

              return <Text onPress={start} onLongPress={tick}>{workoutSteps} steps this workout</Text>;
            }
            """]),
            // Counters starting over when a workout starts and at midnight: not a read that came back empty.
            .reactNative(["js/src/Workout.tsx": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';
            import { useState } from 'react';

            export function useWorkout() {
              const [workoutSteps, setWorkoutSteps] = useState<number | null>(null);
              const [lastReset, setLastReset] = useState('');
              const start = () => {
                setWorkoutSteps(0);
              };
              const checkDailyReset = (today: string) => {
                if (lastReset !== today) {
                  setWorkoutSteps(0);
                  setLastReset(today);
                }
              };
              const refresh = () => {
                AppleHealthKit.getStepCount({}, (error: string, result: HealthValue) => {
                  if (error || !result) { setWorkoutSteps(null); return; }
                  setWorkoutSteps(result.value);
                });
              };
              return { workoutSteps, start, checkDailyReset, refresh };
            }
            """]),
            .reactNative(["js/src/services/health.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export type Today = { steps: number | null; sleepHours: number | null; error: string | null };

            export const EMPTY_TODAY: Today = {
              steps: null,
              sleepHours: null,
              error: null,
            };

            export const readSteps = (): Promise<number | null> =>
              new Promise((resolve) => {
                AppleHealthKit.getStepCount({ date: new Date().toISOString() }, (err: string, result: HealthValue) => {
                  resolve(err || !result ? null : result.value);
                });
              });

            const styles = { card: { padding: 0, marginTop: 0 } };
            """]),
            .reactNative(["js/src/energy.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export const activeCalories = (samples: HealthValue[]): number | null =>
              samples.length === 0 ? null : Math.round(samples.reduce((sum, sample) => sum + sample.value, 0));

            export function StepsLabel({ steps }: { steps: number | null }) {
              const [page, setPage] = useState(0);
              return steps === null ? 'No data' : `${steps} steps`;
            }
            """]),
            // Health words in names of values that do not come from Health: a form field parsed with
            // `|| 0`, a tour's step, a timer, a count of the app's own entries.
            .reactNative(["js/src/screens/LogMeal.tsx": """
            import React, { useEffect, useState } from 'react';
            import { Text, TextInput } from 'react-native';
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export function LogMeal({ meals }: { meals: { calories: number }[] }) {
              const [calories, setCalories] = useState('');
              const [tourStep, setTourStep] = useState(0);
              const [restTimerEndsAt, setRestTimerEndsAt] = useState<number | null>(null);
              const [weight, setWeight] = useState<number | null>(null);

              useEffect(() => {
                AppleHealthKit.getLatestWeight({ unit: 'kg' }, (error: string, result: HealthValue) => {
                  setWeight(error || !result ? null : result.value);
                });
              }, []);

              const kcal = parseInt(calories, 10) || 0;
              const mealCalories = meals.reduce((sum, meal) => sum + meal.calories, 0);
              const secondsLeft = Math.max(0, (restTimerEndsAt ?? 0) - Date.now());
              const next = () => setTourStep((tourStep || 0) + 1);

              return (
                <>
                  <TextInput value={calories} onChangeText={setCalories} onSubmitEditing={next} />
                  <Text>{kcal + mealCalories} kcal · {secondsLeft} s · {weight === null ? 'No weight in Health' : `${weight} kg`}</Text>
                </>
              );
            }
            """]),
            // A day's read resolved as 0, then left out when it is 0: nothing missing is kept as a zero.
            .reactNative(["js/src/history.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export async function stepDays(dates: Date[]): Promise<{ date: string; value: number }[]> {
              const days: { date: string; value: number }[] = [];
              for (const date of dates) {
                const dailySteps = await new Promise<number>((resolve) => {
                  AppleHealthKit.getStepCount({ date: date.toISOString() }, (error: string, results: HealthValue) => {
                    if (error) {
                      resolve(0);
                    } else {
                      resolve(results?.value || 0);
                    }
                  });
                });
                if (dailySteps > 0) {
                  days.push({ date: date.toISOString(), value: dailySteps });
                }
              }
              return days;
            }
            """]),
            // A zero the app then tests as "no data" before showing anything.
            .reactNative(["js/src/sleep.tsx": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export async function stepsCard() {
              const result: HealthValue = await new Promise((resolve) => AppleHealthKit.getStepCount({}, (_e: string, r: HealthValue) => resolve(r)));
              const steps = result?.value ?? 0;
              if (steps <= 0) return { value: 'No steps yet' };
              return { value: `${steps} steps` };
            }
            """]),
            // A field of each workout that came back, in a loop over them: nothing missing becomes 0.
            .reactNative(["js/src/runs.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export function importRuns(save: (run: { meters: number }) => void) {
              AppleHealthKit.getSamples({ type: 'Running', startDate: new Date(0).toISOString() }, (error: string, workouts: any[]) => {
                if (error || !workouts) return;
                for (const w of workouts) {
                  save({ meters: (w.distance ?? 0) * 1000 });
                }
              });
            }
            """]),
            // A default for one field of each sample that came back, and a zero sum turned back into null.
            .reactNative(["js/src/energy.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export async function caloriesToday(): Promise<number | null> {
              const results: HealthValue[] = await new Promise((resolve) => AppleHealthKit.getActiveEnergyBurned({}, (_e: string, r: HealthValue[]) => resolve(r || [])));
              const total = results.reduce((sum: number, item: HealthValue) => sum + (item.value ?? 0), 0);
              return total || null;
            }
            """]),
            // Running totals of the samples that came back: a day has a key only once one did.
            .reactNative(["js/src/daily.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export function dailySteps(onDone: (days: Map<string, number>) => void) {
              AppleHealthKit.getDailyStepCountSamples({ startDate: new Date(0).toISOString() }, (error: string, results: HealthValue[]) => {
                const byDay = new Map<string, number>();
                const heart = new Map<string, { total: number; count: number }>();
                const totals: Record<string, number> = {};
                results.forEach((sample) => {
                  const day = sample.startDate.slice(0, 10);
                  byDay.set(day, (byDay.get(day) ?? 0) + sample.value);
                  totals[day] = (totals[day] || 0) + sample.value;
                  const entry = heart.get(day) ?? { total: 0, count: 0 };
                  entry.total += sample.value;
                  entry.count++;
                  heart.set(day, entry);
                });
                onDone(byDay);
              });
            }
            """]),
            // The empty result's object carries its own count of what came back (`days`, filled with the
            // number of days that had samples), so its zeros come with "nothing came back" (seen in a real app).
            .reactNative(["js/src/steps.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export type StepsStats = { totalSteps: number; days: number; avgStepsPerDay: number; dailyBreakdown: { date: string; value: number }[] };

            export function getSteps(startDate: Date): Promise<StepsStats | null> {
              return new Promise((resolve) => {
                AppleHealthKit.getDailyStepCountSamples({ startDate: startDate.toISOString() }, (err: string, results: HealthValue[]) => {
                  if (err || !results) {
                    resolve(null);
                    return;
                  }
                  if (results.length === 0) {
                    resolve({ totalSteps: 0, days: 0, avgStepsPerDay: 0, dailyBreakdown: [] });
                    return;
                  }
                  const byDay = new Map<string, number>();
                  results.forEach((sample) => {
                    const day = sample.startDate.slice(0, 10);
                    byDay.set(day, (byDay.get(day) ?? 0) + sample.value);
                  });
                  const totalSteps = results.reduce((sum, sample) => sum + sample.value, 0);
                  const days = byDay.size;
                  const avgStepsPerDay = Math.round(totalSteps / days);
                  const dailyBreakdown: { date: string; value: number }[] = [];
                  byDay.forEach((steps, date) => dailyBreakdown.push({ date, value: steps }));
                  resolve({ totalSteps, days, avgStepsPerDay, dailyBreakdown });
                });
              });
            }
            """]),
            // A server kept in the same repository is not the app, even when it shares the app's types.
            .reactNative(["js/App.tsx": """
            import React, { useEffect, useState } from 'react';
            import { Text } from 'react-native';
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            export default function App() {
              const [steps, setSteps] = useState<number | null>(null);
              useEffect(() => {
                AppleHealthKit.getStepCount({}, (error: string, result: HealthValue) => setSteps(error || !result ? null : result.value));
              }, []);
              return <Text>{steps === null ? 'No step data' : `${steps} steps`}</Text>;
            }
            """, "js/server/sync.ts": """
            import type { HealthValue } from 'react-native-health';

            export const totalSteps = (samples: HealthValue[]): number => samples.reduce((sum, s) => sum + s.value, 0);

            export const stepsFromRequest = (body: { steps?: string }): number => parseInt(body.steps ?? '', 10) || 0;
            """]),
            // A catch that cannot run: the function it awaits only resolves (no reject, no throw), so the
            // fallback 0 is never shown.
            .reactNative(["js/src/StepService.ts": """
            import AppleHealthKit, { HealthValue } from 'react-native-health';

            class StepService {
              async stepsOn(date: Date): Promise<number | null> {
                try {
                  return new Promise((resolve) => {
                    AppleHealthKit.getStepCount({ date: date.toISOString() }, (error: string, result: HealthValue) => {
                      resolve(error ? null : result.value);
                    });
                  });
                } catch (error) {
                  return 0;
                }
              }

              async today(): Promise<number | null> {
                return this.stepsOn(new Date());
              }

              async week(): Promise<{ value: number | null }[]> {
                const days: { value: number | null }[] = [];
                for (let i = 0; i < 7; i++) {
                  try {
                    days.push({ value: await this.stepsOn(new Date(Date.now() - i * 86400000)) });
                  } catch (error) {
                    days.push({ value: 0 });
                  }
                }
                return days;
              }

              async summary(): Promise<{ steps: number | null; week: { value: number | null }[] }> {
                try {
                  const [steps, week] = await Promise.all([this.today(), this.week()]);
                  return { steps, week };
                } catch (error) {
                  return { steps: 0, week: [] };
                }
              }
            }

            export default new StepService();
            """]),
        ]
    )

    func check(_ context: AuditContext) -> [Finding] {
        let files = context.manifest.javaScriptSources
        // Only values that come from a HealthKit read: a name that sounds like health data
        // (`parseInt(calories, 10) || 0` of a form field) is not one.
        guard !files.isEmpty else { return [] }
        let values = HealthValues(files: files, calls: context.javaScriptCalls)
        let unreachable = UnreachableCatch(flows: values.flows)
        return files.indices.flatMap { findings(in: $0, values: values, unreachable: unreachable, target: context.manifest.id) }
    }

    private func findings(in fileIndex: Int, values: HealthValues, unreachable: UnreachableCatch, target: String) -> [Finding] {
        let flow = values.flows[fileIndex]
        let file = flow.file
        var findings: [Finding] = []
        func add(_ message: String, at index: Int) {
            // A fallback in a `catch` that cannot run is never shown.
            guard !unreachable.contains(index, in: fileIndex) else { return }
            findings.append(finding(message, at: file.location(of: index), quote: file.quote(index), target: target))
        }
        let tokens = file.tokens
        for (index, token) in tokens.enumerated() where Self.isZero(token) {
            guard index >= 1 else { continue }
            let previous = tokens[index - 1]
            // `x ?? 0`, `x || 0`
            if previous.isPunctuator("??") || previous.isPunctuator("||") {
                let operand = self.operand(before: index - 1, file)
                guard !operand.isEmpty, values.carries(operand, in: fileIndex), !Self.isCount(operand, file),
                      !Self.isRunningTotal(operand, zero: index, file), !Self.isPerSample(operand, file),
                      !Self.isTestedSentinel(operand, file, flow: flow), !Self.isSumFromZero(operand, file) else { continue }
                add("`\(file.text(of: operand.lowerBound..<(index + 1)))` turns \"nothing came back\" into 0; a denied read also returns nothing, "
                    + "so the app shows 0 where it should say \"no data\"", at: operand.lowerBound)
                continue
            }
            // `useState(0)` for state that Health data is put in: `const [steps, setSteps] = useState(0)` … `setSteps(result.value)`.
            if previous.isPunctuator("("), index + 1 < tokens.count, tokens[index + 1].isPunctuator(")") {
                guard index >= 2 else { continue }
                if let hook = hookName(before: index - 1, file), hook == "useState", let (state, setter) = stateNames(of: index - 1, file),
                   values.isHealthSetter(setter, in: fileIndex), !Self.isCounterOrBaseline(state, setter: setter, declaredAt: index, file) {
                    add("`\(state)` starts at 0 before Health answers and stays 0 when nothing comes back — which is also what a denied read "
                        + "looks like; start at null and show \"no data\"", at: index)
                    continue
                }
                let callee = index - 2
                // Only where a read came back with nothing or failed: a reset when a workout starts, or
                // at midnight, is the counter starting over, not a value shown for "nothing came back".
                if tokens[callee].kind == .identifier, values.isHealthSetter(tokens[callee].text, in: fileIndex), Self.isFailureBranch(callee, file),
                   // A catch of something else (a database query) is not Health failing.
                   UnreachableCatch.tryBlock(ofCatchAround: callee, file).map({ values.readsHealth($0, in: fileIndex) }) ?? true {
                    add("`\(tokens[callee].text)(0)` shows 0 for a health value when nothing came back (or on failure); a denied read looks the same, "
                        + "so keep null and show \"no data\"", at: callee)
                }
                continue
            }
            // `.reduce((sum, s) => sum + s.value, 0)` over Health samples, without an emptiness check.
            if previous.isPunctuator(","), let open = file.parent[index], tokens[open].isPunctuator("("), open >= 2,
               tokens[open - 1].isIdentifier("reduce"), tokens[open - 2].isPunctuator(".") || tokens[open - 2].isPunctuator("?."),
               file.partner[open] == index + 1,
               let receiver = HealthValues.receiver(endingBefore: open - 2, in: file), values.carries(receiver, in: fileIndex),
               let root = flow.receiverRoot(of: open - 1) {
                let name = tokens[root].text
                let scope = flow.function(containing: open).map(\.body) ?? 0..<tokens.count
                // `results.length`, or `results?.length` of an early `if (!results?.length) return resolve(null)`.
                let checksEmpty = scope.contains { i in
                    tokens[i].isIdentifier(name) && i + 2 < tokens.count && (tokens[i + 1].isPunctuator(".") || tokens[i + 1].isPunctuator("?."))
                        && tokens[i + 2].isIdentifier("length")
                }
                if !checksEmpty && !Self.keepsNoData(sumAt: open - 1, file) {
                    add("summing `\(name)` from 0 shows 0 when Health returned no samples — also what a denied read returns; check "
                        + "`\(name).length` and show \"no data\"", at: open - 1)
                }
            }
        }
        // `{ steps: 0, sleepHours: 0 }` whose keys are given Health data elsewhere in the file: one finding per object.
        for (open, token) in tokens.enumerated() where token.isPunctuator("{") && file.partner[open] != nil {
            let zeroed = file.items(of: open).filter { item in
                item.count == 3 && (tokens[item.lowerBound].kind == .identifier || tokens[item.lowerBound].kind == .string)
                    && tokens[item.lowerBound + 1].isPunctuator(":") && Self.isZero(tokens[item.lowerBound + 2])
                    && values.isHealthKey(tokens[item.lowerBound].value, in: fileIndex)
            }
            // `{ workouts: [], dailyLoad: 0 }`: the object carries the (empty) list of what came back beside the zero,
            // so whoever reads it can tell "none" from a measured 0.
            let carriesEmptyList = file.items(of: open).contains { item in
                item.count == 4 && tokens[item.lowerBound].kind == .identifier && tokens[item.lowerBound + 1].isPunctuator(":")
                    && tokens[item.lowerBound + 2].isPunctuator("[") && tokens[item.lowerBound + 3].isPunctuator("]")
                    && values.isHealthKey(tokens[item.lowerBound].value, in: fileIndex)
            }
            guard let first = zeroed.first, !carriesEmptyList, !Self.isAccumulatorSeed(open, file), !Self.carriesResultCount(open, file, flow: flow) else { continue }
            let keys = zeroed.map { "`\(tokens[$0.lowerBound].value)`" }.joined(separator: ", ")
            let owner = declaredName(of: open, file).map { "`\($0)` gives " } ?? "this object gives "
            add(owner + keys + " the value 0: when nothing comes back from Health — which is also what a denied read looks like — "
                + "they read as measured zeros instead of \"no data\"", at: first.lowerBound)
        }
        return findings
    }

    /// `const avgSleep = data?.avgHoursPerNight ?? 0` … `if (avgSleep <= 0) return 'No sleep data yet'`:
    /// the name the zero is bound to is then tested against zero (compared with 0, negated, or a
    /// condition) in the same function — the app handles "nothing came back" itself.
    private static func isTestedSentinel(_ operand: Range<Int>, _ file: JavaScriptFile, flow: JSFlow) -> Bool {
        let tokens = file.tokens
        var equals = operand.lowerBound - 1
        // `Math.round(x ?? 0)`: rounding keeps a zero a zero, so the name bound outside it is the sentinel.
        while equals >= 2, tokens[equals].isPunctuator("("), let close = file.partner[equals], close + 1 < tokens.count,
              tokens[close + 1].isPunctuator(";") || tokens[close + 1].isPunctuator(")") || tokens[close + 1].kind != .punctuator,
              Self.keepsZero(callee: equals - 1, file) {
            equals = tokens[equals - 2].isPunctuator(".") ? equals - 4 : equals - 2
        }
        // `resolve(x || 0)` in the executor of `const name = await new Promise((resolve) => …)`: the bound name is tested.
        if let bound = promiseBinding(ofResolvedAt: operand.lowerBound, in: file) { equals = bound }
        guard equals >= 2, tokens[equals].isPunctuator("="), tokens[equals - 1].kind == .identifier,
              ["const", "let", "var"].contains(where: tokens[equals - 2].isIdentifier) else { return false }
        let name = tokens[equals - 1].text
        let scope = flow.function(containing: equals).map(\.body) ?? 0..<tokens.count
        let comparisons = ["<=", ">", "===", "!==", "==", "!=", "<", ">="]
        return scope.contains { i in
            guard i > equals + 1, i + 1 < tokens.count, tokens[i].isIdentifier(name), !tokens[i - 1].isPunctuator("."), !tokens[i - 1].isPunctuator("?.") else { return false }
            let next = tokens[i + 1]
            if comparisons.contains(where: next.isPunctuator), i + 2 < tokens.count, isZero(tokens[i + 2]) { return true }
            if tokens[i - 1].isPunctuator("!") || next.isPunctuator("?") || next.isPunctuator("&&") { return true }
            return tokens[i - 1].isPunctuator("(") && i >= 2 && tokens[i - 2].isIdentifier("if") && next.isPunctuator(")")
        }
    }

    /// `Math.round(`, `Math.floor(`, `Math.ceil(`, `Math.trunc(`, `Number(`: a call that leaves 0 as 0.
    private static func keepsZero(callee: Int, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        guard callee >= 0, tokens[callee].kind == .identifier else { return false }
        if tokens[callee].text == "Number" { return callee == 0 || !tokens[callee - 1].isPunctuator(".") }
        return ["round", "floor", "ceil", "trunc"].contains(tokens[callee].text) && callee >= 2 && tokens[callee - 1].isPunctuator(".")
            && tokens[callee - 2].isIdentifier("Math")
    }

    /// The `=` of `const name = await new Promise((resolve) => …)` when `start` is the argument of that
    /// executor's `resolve(…)`, else nil.
    static func promiseBinding(ofResolvedAt start: Int, in file: JavaScriptFile) -> Int? {
        let tokens = file.tokens
        guard start >= 2, tokens[start - 1].isPunctuator("("), tokens[start - 2].kind == .identifier else { return nil }
        let resolve = tokens[start - 2].text
        var open = file.parent[start - 2]
        while let o = open {
            // `new Promise(` or `new Promise<number>(` whose executor's first parameter is `resolve`.
            if o + 2 < tokens.count, let newToken = JavaScriptBindings.promiseNew(opening: o, in: file) {
                let parameter = tokens[o + 1].isPunctuator("(") ? o + 2 : o + 1
                guard tokens[parameter].isIdentifier(resolve) else { return nil }
                let equals = file.index(beforeAwaited: newToken)
                return equals >= 0 && tokens[equals].isPunctuator("=") ? equals : nil
            }
            open = file.parent[o]
        }
        return nil
    }

    /// `const [workoutSteps, setWorkoutSteps] = useState(0)` that the app itself sets back to 0 when
    /// a session starts (`setWorkoutSteps(0)` outside a failure branch): a counter whose start is 0,
    /// not a stand-in for an answer. Or a baseline only ever subtracted (`current - startSteps`),
    /// never shown.
    private static func isCounterOrBaseline(_ state: String, setter: String, declaredAt zero: Int, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        let resets = tokens.indices.contains { i in
            i + 3 < tokens.count && tokens[i].isIdentifier(setter) && tokens[i + 1].isPunctuator("(") && isZero(tokens[i + 2])
                && tokens[i + 3].isPunctuator(")") && !isFailureBranch(i, file)
        }
        if resets { return true }
        let uses = tokens.indices.filter { i in
            tokens[i].isIdentifier(state) && i > zero && !(i >= 1 && (tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?.")))
        }
        return !uses.isEmpty && uses.allSatisfy { $0 >= 1 && tokens[$0 - 1].isPunctuator("-") }
    }

    /// `samples.length || 0`: a count of what came back is 0 when nothing did, rightly.
    private static func isCount(_ operand: Range<Int>, _ file: JavaScriptFile) -> Bool {
        guard let last = operand.last else { return false }
        return file.tokens[last].isIdentifier("length") || file.tokens[last].isIdentifier("size")
    }

    /// Whether `index` is in a `catch` block, or in the branch of an `if` whose condition tests an
    /// error or an empty result (`if (error)`, `if (!results)`, `results.length === 0`, `== null`).
    static func isFailureBranch(_ index: Int, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var brace = file.parent[index]
        while let open = brace {
            defer { brace = file.parent[open] }
            guard tokens[open].isPunctuator("{"), open >= 1 else { continue }
            var before = open - 1
            if tokens[before].isIdentifier("else"), before >= 1, tokens[before - 1].isPunctuator("}"), let start = file.partner[before - 1] {
                before = start - 1  // `if (…) { … } else {`: the `if`'s condition decides this branch too.
            }
            if tokens[before].isIdentifier("catch") { return true }
            guard tokens[before].isPunctuator(")"), let paren = file.partner[before], paren >= 1 else { continue }
            if tokens[paren - 1].isIdentifier("catch") { return true }
            guard tokens[paren - 1].isIdentifier("if") else { continue }
            let condition = (paren + 1)..<before
            let failure = condition.contains { i in
                let token = tokens[i]
                if token.kind == .identifier {
                    let word = token.text.lowercased()
                    return word.contains("err") || word == "length" || word == "null" || word == "undefined"
                }
                return token.isPunctuator("!") && i + 1 < before && tokens[i + 1].kind == .identifier
            }
            if failure { return true }
        }
        return false
    }

    /// `calories || 0` where `calories` was bound to a sum counted from 0 (`….reduce((t, s) => t + s.quantity, 0)`,
    /// also one element of `const [calories, protein] = await Promise.all([…])`): never missing, so the
    /// fallback turns nothing into 0. The zero comes from the sum, which is reported where it starts.
    static func isSumFromZero(_ operand: Range<Int>, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        guard operand.count == 1, tokens[operand.lowerBound].kind == .identifier else { return false }
        let name = tokens[operand.lowerBound].text
        // The nearest declaration before the use: `const NAME = …` or `const [a, NAME] = …`.
        var i = operand.lowerBound - 1
        while i >= 1 {
            defer { i -= 1 }
            guard tokens[i].isIdentifier(name), !(tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?.")) else { continue }
            if i + 1 < tokens.count, tokens[i + 1].isPunctuator("="), ["const", "let", "var"].contains(tokens[i - 1].text) {
                return endsWithSumFromZero(start: i + 2, end: statementEnd(after: i + 1, file), file)
            }
            guard let open = file.parent[i], tokens[open].isPunctuator("["), open >= 1, ["const", "let", "var"].contains(tokens[open - 1].text),
                  let close = file.partner[open], close + 1 < tokens.count, tokens[close + 1].isPunctuator("=") else { continue }
            guard let position = file.items(of: open).firstIndex(where: { $0.count == 1 && $0.first == i }) else { return false }
            // `await Promise.all([e0, e1, …])`: element `position`.
            var j = close + 2
            if j < tokens.count, tokens[j].isIdentifier("await") { j += 1 }
            guard j + 4 < tokens.count, tokens[j].isIdentifier("Promise"), tokens[j + 1].isPunctuator("."), tokens[j + 2].isIdentifier("all"),
                  tokens[j + 3].isPunctuator("("), tokens[j + 4].isPunctuator("[") else { return false }
            let elements = file.items(of: j + 4)
            guard position < elements.count, let last = elements[position].last else { return false }
            return endsWithSumFromZero(start: elements[position].first!, end: last + 1, file)
        }
        return false
    }

    /// The end of the statement from `index`: its `;`, or the close of the block it is in.
    private static func statementEnd(after index: Int, _ file: JavaScriptFile) -> Int {
        let parent = file.parent[index]
        var k = index + 1
        while k < file.tokens.count, file.parent[k] == parent, !file.tokens[k].isPunctuator(";") {
            if let close = file.partner[k], close > k { k = close + 1 } else { k += 1 }
        }
        return k
    }

    /// Whether the expression `start..<end` ends with `.reduce(…, 0)`, alone or as the value of a
    /// `.then(s => s.reduce(…, 0))` callback.
    private static func endsWithSumFromZero(start: Int, end: Int, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var close = end - 1
        // `.then((samples) => samples.reduce(…, 0))`: the callback's own closing parens.
        while close > start, tokens[close].isPunctuator(")") {
            guard let open = file.partner[close], open >= 2 else { return false }
            if tokens[open - 1].isIdentifier("reduce") {
                let items = file.items(of: open)
                guard items.count == 2, let initial = items.last, initial.count == 1 else { return false }
                return isZero(tokens[initial.first!])
            }
            // Step into the last argument of the call (the `.then` callback's body).
            guard let inner = file.items(of: open).last?.last, inner > open else { return false }
            close = inner
        }
        return false
    }

    /// `m.set(k, (m.get(k) ?? 0) + v)`, `t[k] = (t[k] || 0) + v`: the 0 starts a running total of
    /// samples that came back — a key exists only once one did, so no missing value becomes 0.
    private static func isRunningTotal(_ operand: Range<Int>, zero: Int, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        guard operand.lowerBound >= 1, tokens[operand.lowerBound - 1].isPunctuator("("),
              file.partner[operand.lowerBound - 1] == zero + 1, zero + 2 < tokens.count, tokens[zero + 2].isPunctuator("+") else { return false }
        let read = file.text(of: operand)
        // The lookup is `m.get(k)`: the total goes back with `m.set(k, …)` around it.
        if operand.count >= 4, tokens[operand.upperBound - 1].isPunctuator(")"), let open = file.partner[operand.upperBound - 1],
           open >= operand.lowerBound + 2, tokens[open - 1].isIdentifier("get"), tokens[open - 2].isPunctuator(".") {
            let container = file.text(of: operand.lowerBound..<(open - 2))
            let key = file.text(of: (open + 1)..<(operand.upperBound - 1))
            guard let call = file.parent[operand.lowerBound - 1], tokens[call].isPunctuator("("), call >= 2,
                  tokens[call - 1].isIdentifier("set"), tokens[call - 2].isPunctuator(".") else { return false }
            let items = file.items(of: call)
            return items.count == 2 && file.text(of: file.chain(endingAt: call - 3).start..<(call - 2)) == container
                && file.text(of: items[0]) == key
        }
        // The lookup is a place (`t[k]`, `o.x`): the statement assigns the total back to it.
        var i = operand.lowerBound - 2
        guard i >= 1, tokens[i].isPunctuator("=") else { return false }
        i -= 1
        var start = i
        while start > 0 {
            let token = tokens[start]
            if token.isCloser, let open = file.partner[start] { start = open - 1; continue }
            if token.kind == .identifier || token.isPunctuator(".") || token.isPunctuator("?.") { start -= 1; continue }
            break
        }
        return file.text(of: (start + 1)..<(i + 1)) == read
    }

    /// `samples.reduce((sum, item) => sum + (item.value ?? 0), 0)`: the default stands in for one field of
    /// a sample that came back; an empty (denied) result never reaches it.
    private static func isPerSample(_ operand: Range<Int>, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        // `(sample.value as number | undefined) ?? 0`: the parenthesised field, cast or not.
        var first = operand.lowerBound
        while first + 1 < operand.upperBound, tokens[first].isPunctuator("(") { first += 1 }
        let root = tokens[first]
        guard root.kind == .identifier, operand.upperBound - first >= 3, tokens[first + 1].isPunctuator(".") || tokens[first + 1].isPunctuator("?.") else { return false }
        // The root is a parameter of a callback handed to an iteration of an array.
        var open = file.parent[first]
        while let o = open {
            if tokens[o].isPunctuator("("), o >= 2, ["reduce", "map", "forEach", "filter", "flatMap", "some", "every", "find"].contains(where: tokens[o - 1].isIdentifier),
               tokens[o - 2].isPunctuator(".") || tokens[o - 2].isPunctuator("?."), let close = file.partner[o] {
                // `(sum, item) =>` / `item =>` / `function (sum, item)` at the start of the callback.
                let head = (o + 1)..<min(close, o + 12)
                if head.contains(where: { tokens[$0].isIdentifier(root.text) }) { return true }
            }
            // `for (const w of workouts) { … w.distance ?? 0 … }`: the loop's variable is one returned item.
            if tokens[o].isPunctuator("{"), o >= 1, tokens[o - 1].isPunctuator(")"), let header = file.partner[o - 1], header >= 1,
               tokens[header - 1].isIdentifier("for"), header + 3 < o,
               ["const", "let", "var"].contains(where: tokens[header + 1].isIdentifier), tokens[header + 2].isIdentifier(root.text),
               tokens[header + 3].isIdentifier("of") {
                return true
            }
            open = file.parent[o]
        }
        return false
    }

    /// `const total = samples.reduce(…, 0)` then `return total || null` (or `total > 0 ? total : null`):
    /// a zero sum becomes "no data" again before anything shows it.
    private static func keepsNoData(sumAt reduce: Int, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        var i = reduce
        while i > 0, !tokens[i].isPunctuator("="), !tokens[i].isPunctuator(";"), !tokens[i].isPunctuator("{") { i -= 1 }
        guard i >= 1, tokens[i].isPunctuator("="), tokens[i - 1].kind == .identifier else { return false }
        let name = tokens[i - 1].text
        let end = min(tokens.count, (file.partner[file.parent[reduce] ?? reduce] ?? reduce) + 400)
        for j in reduce..<max(reduce, end - 3) where tokens[j].isIdentifier(name) {
            let next = tokens[j + 1], after = tokens[j + 2]
            if next.isPunctuator("||"), after.isIdentifier("null") || after.isIdentifier("undefined") { return true }
            if next.isPunctuator(">") || next.isPunctuator("==="), tokens[j + 2].kind == .number, j + 3 < tokens.count, tokens[j + 3].isPunctuator("?") {
                let branch = (j + 4)..<min(tokens.count, j + 12)
                if branch.contains(where: { tokens[$0].isIdentifier("null") || tokens[$0].isIdentifier("undefined") }) { return true }
            }
        }
        return false
    }

    /// `const entry = totals.get(day) ?? { total: 0, count: 0 }` then `entry.total += v`: zeros that
    /// seed an accumulator of samples that came back, not values shown for missing data.
    private static func isAccumulatorSeed(_ open: Int, _ file: JavaScriptFile) -> Bool {
        let tokens = file.tokens
        guard open >= 2, tokens[open - 1].isPunctuator("??") || tokens[open - 1].isPunctuator("||"),
              tokens[open - 2].isPunctuator(")") || tokens[open - 2].isPunctuator("]") else { return false }
        // The declared name the seed is bound to: `const entry = … ?? {`.
        var i = open - 2
        while i > 0, !tokens[i].isPunctuator("="), !tokens[i].isPunctuator(";") { i = tokens[i].isCloser ? (file.partner[i] ?? i) - 1 : i - 1 }
        guard i >= 1, tokens[i].isPunctuator("="), tokens[i - 1].kind == .identifier else { return false }
        let name = tokens[i - 1].text
        let end = file.partner[open] ?? open
        for j in end..<max(end, tokens.count - 3) where tokens[j].isIdentifier(name) && tokens[j + 1].isPunctuator(".") {
            let op = tokens[j + 3]
            if op.isPunctuator("+=") || op.isPunctuator("++") { return true }
        }
        return false
    }

    /// `resolve({ totalSteps: 0, days: 0, dailyBreakdown: [] })` where the same function fills `days`
    /// with a count of what came back (`const days = byDay.size`, `days: results.length`): the object
    /// carries its own count of samples, so its zeros come with "nothing came back" for every reader.
    private static func carriesResultCount(_ open: Int, _ file: JavaScriptFile, flow: JSFlow) -> Bool {
        let tokens = file.tokens
        let zeroKeys = Set(file.items(of: open).filter { item in
            item.count == 3 && tokens[item.lowerBound].kind == .identifier && tokens[item.lowerBound + 1].isPunctuator(":") && isZero(tokens[item.lowerBound + 2])
        }.map { tokens[$0.lowerBound].text })
        guard !zeroKeys.isEmpty, let scope = flow.function(containing: open)?.body else { return false }
        let ends: Set<String> = [";", ",", "}", ")"]
        for i in scope where i + 4 < tokens.count && tokens[i].kind == .identifier && zeroKeys.contains(tokens[i].text)
            && (tokens[i + 1].isPunctuator("=") || tokens[i + 1].isPunctuator(":")) && !(i >= 1 && (tokens[i - 1].isPunctuator(".") || tokens[i - 1].isPunctuator("?."))) {
            // The value, to the end of its statement or item: `<chain>.size` / `<chain>.length` and nothing after.
            var j = i + 2
            while j + 1 < min(scope.upperBound, tokens.count), j < i + 12 {
                let token = tokens[j]
                if token.kind == .punctuator && ends.contains(token.text) { break }
                if token.isIdentifier("size") || token.isIdentifier("length"), tokens[j - 1].isPunctuator(".") || tokens[j - 1].isPunctuator("?.") {
                    let next = tokens[j + 1]
                    if next.line != token.line || (next.kind == .punctuator && ends.contains(next.text)) { return true }
                }
                if token.isPunctuator("(") || token.isPunctuator("[") || token.isPunctuator("{"), let close = file.partner[j], close > j { j = close + 1; continue }
                j += 1
            }
        }
        return false
    }

    private static func isZero(_ token: JSToken) -> Bool {
        token.kind == .number && (Double(token.text.replacingOccurrences(of: "_", with: "")) ?? 1) == 0
    }

    /// The operand left of a binary operator at `operatorIndex`, up to the nearest boundary.
    private func operand(before operatorIndex: Int, _ file: JavaScriptFile) -> Range<Int> {
        var start = operatorIndex
        var i = operatorIndex - 1
        let boundaries: Set<String> = [",", "=", ":", "?", ";", "=>", "&&", "||", "??", "return", "(", "[", "{"]
        while i >= 0 {
            let token = file.tokens[i]
            if token.isCloser, let open = file.partner[i] { start = open; i = open - 1; continue }
            if (token.kind == .punctuator || token.isIdentifier("return")) && boundaries.contains(token.text) { break }
            start = i
            i -= 1
        }
        return start..<operatorIndex
    }

    private func hookName(before open: Int, _ file: JavaScriptFile) -> String? {
        var i = open - 1
        if i >= 0, file.tokens[i].isPunctuator(">") {
            while i > 0, !file.tokens[i].isPunctuator("<") { i -= 1 }
            i -= 1
        }
        guard i >= 0, file.tokens[i].kind == .identifier else { return nil }
        return file.tokens[i].text
    }

    /// `const [steps, setSteps] = useState(…)` → `steps` and `setSteps`.
    private func stateNames(of open: Int, _ file: JavaScriptFile) -> (state: String, setter: String)? {
        var i = open - 1
        while i > 0, !file.tokens[i].isPunctuator("=") { if file.tokens[i].isPunctuator(";") { return nil }; i -= 1 }
        guard i > 0, file.tokens[i - 1].isPunctuator("]"), let bracket = file.partner[i - 1] else { return nil }
        let names = file.items(of: bracket)
        guard names.count == 2, names.allSatisfy({ $0.count == 1 && file.tokens[$0.lowerBound].kind == .identifier }) else { return nil }
        return (file.tokens[names[0].lowerBound].text, file.tokens[names[1].lowerBound].text)
    }

    /// `const EMPTY_METRICS: DailyMetrics = {` → `EMPTY_METRICS`.
    private func declaredName(of open: Int, _ file: JavaScriptFile) -> String? {
        var i = open - 1
        guard i >= 1, file.tokens[i].isPunctuator("=") else { return nil }
        i -= 1
        var steps = 0
        while i >= 1, steps < 20 {
            if file.tokens[i].kind == .identifier, ["const", "let", "var"].contains(file.tokens[i - 1].text) { return file.tokens[i].text }
            i -= 1; steps += 1
        }
        return nil
    }
}
