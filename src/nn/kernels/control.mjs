// Layout of the Int32 control block the caller and the helper thread share (see helper-thread.ts, worker.mjs).
export const CTL = Object.freeze({
  SEQ: 0, // bumped by the caller for each job
  DONE: 1, // set by the helper to the sequence number it finished
  READY: 2, // 1 once the helper has instantiated the module
  FAILED: 3, // 1 if the helper's last job threw
  STOP: 4, // 1 asks the helper to exit
  ARGS: 8, // the 13 gemm arguments
  SIZE: 32,
});
