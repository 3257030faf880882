/** Get the current local time as a string. */
export function current_time(): string {
  return new Date().toLocaleTimeString();
}
