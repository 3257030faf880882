export declare const CTL: Readonly<{
  SEQ: number;
  NEXT: number;
  COMPLETED: number;
  READY: number;
  FAILED: number;
  STOP: number;
  ARGS: number;
  SIZE: number;
}>;

export type Gemm = (...args: number[]) => void;

export declare function runChunks(ctl: Int32Array, gemm: Gemm, scratch: number, seq: number): void;
