export declare const CTL: Readonly<{
  SEQ: number;
  DONE: number;
  READY: number;
  FAILED: number;
  STOP: number;
  ARGS: number;
  SIZE: number;
}>;
