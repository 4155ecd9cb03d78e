// Progress for long work, on stderr: a bar on a terminal, a line every 10% otherwise.
import cliProgress from "cli-progress";
import { isQuiet } from "./output.js";

/** What --quiet shows of progress: nothing. */
const SILENT = { update() {}, done() {} };

export function renderProgress(label: string) {
  if (isQuiet()) return SILENT;
  const tty = Boolean(process.stderr.isTTY);
  let bar: cliProgress.SingleBar | null = null;
  let lastDecile = -1;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return {
    update(received: number, total: number | null) {
      if (tty && total) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            { format: `${label} [{bar}] {percentage}% {done}/{size} MB`, hideCursor: true, stream: process.stderr },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, 0, { done: "0.0", size: mb(total) });
        }
        bar.update(received, { done: mb(received), size: mb(total) });
        return;
      }
      const decile = total ? Math.floor((received / total) * 10) : Math.floor(received / (50 * 1024 * 1024));
      if (decile !== lastDecile) {
        lastDecile = decile;
        process.stderr.write(
          total ? `${label}: ${decile * 10}% (${mb(received)} of ${mb(total)} MB)\n` : `${label}: ${mb(received)} MB\n`,
        );
      }
    },
    done() {
      bar?.stop();
    },
  };
}

/** Progress over a count of items (notes, articles): a bar on a terminal, a line every 10% otherwise. */
export function renderCount(label: string, total: number) {
  if (isQuiet()) return SILENT;
  const tty = Boolean(process.stderr.isTTY);
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: `${label} [{bar}] {percentage}% {value}/{total}`, hideCursor: true, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(total, 0);
  let lastDecile = -1;
  return {
    update(done: number) {
      if (bar) return bar.update(done);
      const decile = total ? Math.floor((done / total) * 10) : 10;
      if (decile !== lastDecile) {
        lastDecile = decile;
        process.stderr.write(`${label}: ${decile * 10}% (${done} of ${total})\n`);
      }
    },
    done() {
      bar?.stop();
    },
  };
}
