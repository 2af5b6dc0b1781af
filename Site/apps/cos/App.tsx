import React from 'react';
import { NavigationContainer } from '@react-navigation/native';
import { createNativeStackNavigator } from '@react-navigation/native-stack';

import TodaySchedule from './src/screens/today-schedule';

const Stack = createNativeStackNavigator();

export default function App() {
  return (
    <NavigationContainer>
      <Stack.Navigator>
        <Stack.Screen name="Today" component={TodaySchedule} options={{ title: "Today's Schedule" }} />
      </Stack.Navigator>
    </NavigationContainer>
  );
}
