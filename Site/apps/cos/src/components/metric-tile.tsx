import React from 'react';
import { StyleSheet, Text, View } from 'react-native';

type Props = {
  label: string;
  value: number | null;
  unit?: string;
};

export const MetricTile = ({ label, value, unit }: Props) => (
  <View style={styles.tile}>
    <Text style={styles.label}>{label}</Text>
    <Text style={styles.value}>
      {value === null ? '--' : value.toLocaleString()}
      {unit && value !== null ? <Text style={styles.unit}> {unit}</Text> : null}
    </Text>
  </View>
);

const styles = StyleSheet.create({
  tile: {
    flexBasis: '48%',
    backgroundColor: '#F4F1EC',
    borderRadius: 12,
    padding: 12,
    marginBottom: 8,
  },
  label: { fontSize: 12, color: '#6B6259' },
  value: { fontSize: 22, fontWeight: '700', color: '#2B2420', marginTop: 4 },
  unit: { fontSize: 13, fontWeight: '400', color: '#6B6259' },
});
