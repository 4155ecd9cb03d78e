import { EngineConfigError } from "../transcription/engine.js";

/** The local language model cannot be used: its engine or its file is missing or unreadable. */
export class LocalModelError extends EngineConfigError {}
