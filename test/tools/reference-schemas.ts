// The reference schemas (the Hugging Face transformers tool-use guide), as HF prints them; key order matters.
export const REFERENCE_MULTIPLY_TEXT = `{
  "type": "function",
  "function": {
    "name": "multiply",
    "description": "A function that multiplies two numbers",
    "parameters": {
      "type": "object",
      "properties": {
        "a": {
          "type": "number",
          "description": "The first number to multiply"
        },
        "b": {
          "type": "number",
          "description": "The second number to multiply"
        }
      },
      "required": ["a", "b"]
    }
  }
}
`;

// get_json_schema's output for the guide's weather functions (HF writes the enum before the description).
export const REFERENCE_JSON: Record<string, string> = {
  multiply: JSON.stringify(JSON.parse(REFERENCE_MULTIPLY_TEXT)),
  get_current_temperature:
    '{"type":"function","function":{"name":"get_current_temperature","description":"Get the current temperature at a location.","parameters":{"type":"object","properties":{"location":{"type":"string","description":"The location to get the temperature for, in the format \\"City, Country\\""},"unit":{"type":"string","enum":["celsius","fahrenheit"],"description":"The unit to return the temperature in."}},"required":["location","unit"]}}}',
  get_current_wind_speed:
    '{"type":"function","function":{"name":"get_current_wind_speed","description":"Get the current wind speed in km/h at a given location.","parameters":{"type":"object","properties":{"location":{"type":"string","description":"The location to get the wind speed for, in the format \\"City, Country\\""}},"required":["location"]}}}',
  current_time:
    '{"type":"function","function":{"name":"current_time","description":"Get the current local time as a string.","parameters":{"type":"object","properties":{}}}}',
};
