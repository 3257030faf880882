import cliProgress from "cli-progress";

/** A progress bar on stderr (drawn only when stderr is a terminal); returns the update and stop callbacks. */
export function progressBar(label: string): {
  update: (done: number, total: number) => void;
  stop: () => void;
} {
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta}s`,
      hideCursor: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
