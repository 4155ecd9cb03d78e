// What `notula record` hands ffmpeg: where the sound comes from on this platform (or a
// file, played at real speed), and one Ogg/Opus stream out on standard output, with
// the momentary loudness on a side channel for the level meter.
import { execFileSync } from "node:child_process";
import { CliError, EXIT } from "../../exit.js";

export interface CaptureOptions {
  /** Record from a file at real speed instead of a device (also how the command is tested). */
  input?: string;
  device?: string;
  systemAudio?: boolean;
  /** The input file's two channels are the person and the others: kept apart, not mixed. */
  sides?: boolean;
  platform?: NodeJS.Platform;
}

const has = (program: string) => {
  try {
    execFileSync(program, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** The default output's monitor (what the speakers play), where PulseAudio or PipeWire has one. */
function monitorSource(): string | null {
  try {
    const sink = execFileSync("pactl", ["get-default-sink"], { encoding: "utf8" }).trim();
    return sink ? `${sink}.monitor` : null;
  } catch {
    return null;
  }
}

/** ffmpeg's input arguments: a file, or the microphone (and the system's sound, mixed in, where asked). */
export function inputArgs(o: CaptureOptions): { args: string[]; inputs: number } {
  if (o.input) return { args: ["-re", "-i", o.input], inputs: 1 };
  const platform = o.platform ?? process.platform;
  if (platform === "darwin") {
    if (o.systemAudio)
      throw new CliError(
        "macOS offers no system-audio device of its own: install a loopback device (BlackHole, say) and pass it with --device.",
        EXIT.usage,
      );
    return { args: ["-f", "avfoundation", "-i", `:${o.device ?? "default"}`], inputs: 1 };
  }
  if (platform === "win32") {
    if (!o.device)
      throw new CliError("On Windows, name the microphone with --device (see --list-devices).", EXIT.usage);
    return { args: ["-f", "dshow", "-i", `audio=${o.device}`], inputs: 1 };
  }
  const pulse = has("pactl");
  const mic = pulse ? ["-f", "pulse", "-i", o.device ?? "default"] : ["-f", "alsa", "-i", o.device ?? "default"];
  if (!o.systemAudio) return { args: mic, inputs: 1 };
  const monitor = pulse ? monitorSource() : null;
  if (!monitor)
    throw new CliError(
      "--system-audio needs PulseAudio or PipeWire (pactl) to find the speakers' monitor.",
      EXIT.usage,
    );
  return { args: [...mic, "-f", "pulse", "-i", monitor], inputs: 2 };
}

/**
 * Whether the stream goes out as two channels, the person's and the others': the
 * microphone and the system's sound, or a file said to hold them.
 */
export const twoSides = (o: CaptureOptions) => Boolean(o.input ? o.sides : o.systemAudio);

/**
 * The whole ffmpeg command line: the microphone and the system's sound kept apart as
 * the two channels of one stream (channel 0 the microphone), a file as it is, encoded
 * as Ogg/Opus on standard output (pages of at most 0.5 s, so pieces leave promptly),
 * and each 100 ms of loudness (LUFS) with its time printed to standard error as it is
 * measured (the log is written at once; a file or pipe the filter wrote to would be buffered).
 */
export function ffmpegArgs(o: CaptureOptions): string[] {
  return captureArgs(inputArgs(o), twoSides(o));
}

/** ffmpeg's command line for these inputs (one source, or the microphone and the system's sound). */
export function captureArgs({ args, inputs }: { args: string[]; inputs: number }, sides: boolean): string[] {
  const merge =
    inputs > 1
      ? // Each side folded to mono at one rate (aformat: ffmpeg 5's amerge refuses aresample'd inputs).
        "[0:a]aformat=sample_rates=48000:channel_layouts=mono[mic];[1:a]aformat=sample_rates=48000:channel_layouts=mono[call];[mic][call]amerge=inputs=2,"
      : "";
  return [
    "-nostdin",
    "-hide_banner",
    "-nostats",
    "-v",
    "info",
    ...args,
    "-filter_complex",
    `${merge}aresample=48000,ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.M`,
    "-ac",
    sides ? "2" : "1",
    "-c:a",
    "libopus",
    "-b:a",
    "32k",
    "-page_duration",
    "500000",
    "-f",
    "ogg",
    "pipe:1",
  ];
}

/** The capture devices ffmpeg and the sound server know of, for --list-devices. */
export function listDevices(platform: NodeJS.Platform = process.platform): string {
  const run = (program: string, args: string[]) => {
    try {
      return execFileSync(program, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      // ffmpeg lists devices on stderr and exits 1 when asked to.
      return String((err as { stderr?: string }).stderr ?? "");
    }
  };
  if (platform === "darwin")
    return run("ffmpeg", ["-hide_banner", "-f", "avfoundation", "-list_devices", "true", "-i", ""]);
  if (platform === "win32")
    return run("ffmpeg", ["-hide_banner", "-f", "dshow", "-list_devices", "true", "-i", "dummy"]);
  if (has("pactl")) return run("pactl", ["list", "short", "sources"]);
  return run("arecord", ["-L"]);
}
