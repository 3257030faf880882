// Style 3: a decorated method (standard TC39 decorators); every @toolMethod of the class is a tool.
import { P, toolMethod } from "toolgen";

export class Thermometer {
  @toolMethod(
    { name: "convert_temperature", description: "Convert a temperature between Celsius and Fahrenheit." },
    P("value", "number", "The temperature to convert"),
    P("to", "string", "The unit to convert to", { enum: ["celsius", "fahrenheit"] }),
  )
  convert(value: number, to: string): number {
    return to === "celsius" ? (value - 32) / 1.8 : value * 1.8 + 32;
  }
}
