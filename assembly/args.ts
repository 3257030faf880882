// A pool job's arguments: i32 slots in shared memory (f32 values as their bits, f64 as two slots, low word first).

export function arg(args: usize, i: i32): i32 {
  return load<i32>(args + ((<usize>i) << 2));
}

export function argf(args: usize, i: i32): f32 {
  return load<f32>(args + ((<usize>i) << 2));
}

export function argd(args: usize, i: i32): f64 {
  return load<f64>(args + ((<usize>i) << 2));
}
