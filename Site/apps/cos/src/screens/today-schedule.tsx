import React, { useCallback, useEffect, useState } from 'react';
import { FlatList, RefreshControl, SafeAreaView, StyleSheet, Text, View } from 'react-native';

import { MetricTile } from '../components/metric-tile';
import { DailyMetrics, EMPTY_METRICS, loadDailyMetrics } from '../services/health';

type ScheduleItem = {
  id: string;
  time: string;
  title: string;
  location?: string;
};

const TODAY: ScheduleItem[] = [
  { id: '1', time: '07:30', title: 'Morning check-in' },
  { id: '2', time: '10:00', title: 'Team stand-up', location: 'Room 3B' },
  { id: '3', time: '13:00', title: 'Walk & talk 1:1' },
  { id: '4', time: '17:30', title: 'Wind-down routine' },
];

export default function TodaySchedule() {
  const [metrics, setMetrics] = useState<DailyMetrics>({ ...EMPTY_METRICS, isLoading: true });

  const refresh = useCallback(async () => {
    setMetrics((prev) => ({ ...prev, isLoading: true }));
    // loadDailyMetrics never throws: on any failure it hands back zeros plus a message.
    const next = await loadDailyMetrics();
    setMetrics(next);
  }, []);

  useEffect(() => {
    refresh();
  }, [refresh]);

  const header = (
    <View style={styles.card}>
      <Text style={styles.cardTitle}>Today's activity</Text>
      {metrics.error ? <Text style={styles.error}>{metrics.error}</Text> : null}
      <View style={styles.grid}>
        <MetricTile label="Steps" value={metrics.steps} />
        <MetricTile label="Heart rate" value={metrics.heartRate} unit="bpm" />
        <MetricTile label="Sleep" value={metrics.sleepHours} unit="h" />
        <MetricTile label="Calories" value={metrics.caloriesBurned} unit="kcal" />
      </View>
    </View>
  );

  return (
    <SafeAreaView style={styles.screen}>
      <FlatList
        data={TODAY}
        keyExtractor={(item) => item.id}
        ListHeaderComponent={header}
        refreshControl={<RefreshControl refreshing={metrics.isLoading} onRefresh={refresh} />}
        renderItem={({ item }) => (
          <View style={styles.row}>
            <Text style={styles.time}>{item.time}</Text>
            <View>
              <Text style={styles.title}>{item.title}</Text>
              {item.location ? <Text style={styles.location}>{item.location}</Text> : null}
            </View>
          </View>
        )}
      />
    </SafeAreaView>
  );
}

const styles = StyleSheet.create({
  screen: { flex: 1, backgroundColor: '#FFFDF9' },
  card: { margin: 16, padding: 16, borderRadius: 16, backgroundColor: '#FFFFFF', elevation: 2 },
  cardTitle: { fontSize: 17, fontWeight: '600', marginBottom: 8 },
  error: { color: '#B3261E', marginBottom: 8 },
  grid: { flexDirection: 'row', flexWrap: 'wrap', justifyContent: 'space-between' },
  row: { flexDirection: 'row', paddingHorizontal: 16, paddingVertical: 12, gap: 16 },
  time: { width: 52, fontVariant: ['tabular-nums'], color: '#6B6259' },
  title: { fontSize: 16, color: '#2B2420' },
  location: { fontSize: 13, color: '#6B6259' },
});
