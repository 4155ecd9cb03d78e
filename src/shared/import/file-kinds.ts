// What a file is to an import, by its name: a recording, a transcript or note file, and
// whether that file is a recording's transcript (a markdown note is what someone wrote).
// The command line, the watched folder and the web page pair files by these alike.
import { AUDIO_EXTENSIONS } from "../vocabulary.js";
import { IMPORT_EXTENSIONS } from "./transcript-files.js";

const extension = (name: string) => name.slice(name.lastIndexOf(".") + 1).toLowerCase();

export const isRecording = (name: string) => (AUDIO_EXTENSIONS as readonly string[]).includes(extension(name));
export const isTranscript = (name: string) => (IMPORT_EXTENSIONS as readonly string[]).includes(`.${extension(name)}`);
/** A transcript file a recording of its name goes with (not a markdown note). */
export const takesRecording = (name: string) => isTranscript(name) && !/\.(md|markdown)$/i.test(name);
