/**
 * Get the current temperature at a location.
 *
 * @param location The location to get the temperature for, in the format "City, Country"
 * @param unit The unit to return the temperature in. (choices: ["celsius", "fahrenheit"])
 */
export function get_current_temperature(location: string, unit: string): number {
  void location;
  void unit;
  return 22.0; // A real function should probably actually get the temperature!
}

/**
 * Get the current wind speed in km/h at a given location.
 *
 * @param location The location to get the wind speed for, in the format "City, Country"
 */
export function get_current_wind_speed(location: string): number {
  void location;
  return 6.0; // A real function should probably actually get the wind speed!
}
