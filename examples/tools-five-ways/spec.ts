// Style 4: a builder, one call per parameter.
import { toolSpec } from "toolgen";

export const convertTemperature = toolSpec()
  .name("convert_temperature")
  .description("Convert a temperature between Celsius and Fahrenheit.")
  .param("value", "number", "The temperature to convert")
  .param("to", "string", "The unit to convert to", { enum: ["celsius", "fahrenheit"] })
  .execute(({ value, to }) =>
    to === "celsius" ? ((value as number) - 32) / 1.8 : (value as number) * 1.8 + 32,
  )
  .build();
