// Meeting templates and a workspace's AI configuration (the `templates` scope).
import { z } from "zod";
import { Iso } from "./common.js";

/** The limits of one template, enforced on create and update. */
export const TEMPLATE_LIMITS = {
  sections: 50,
  totalChars: 20_000,
  name: 200,
  description: 2_000,
  sectionTitle: 200,
} as const;

export const LanguageCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a language code such as en, de or pt-BR")
  .transform((s) => s.toLowerCase());

export const TemplateSection = z
  .object({
    title: z.string().trim().min(1, "is required").max(TEMPLATE_LIMITS.sectionTitle),
    instructions: z.string().trim().max(TEMPLATE_LIMITS.totalChars).default(""),
  })
  .strict()
  .meta({ id: "TemplateSection" });

export const Template = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    sections: z.array(z.object({ title: z.string(), instructions: z.string() })),
    context: z.string().meta({ description: "Extra context given to the language model with every meeting." }),
    language: z
      .string()
      .nullable()
      .meta({ description: "The language the enhanced note is written in; null for the meeting's own." }),
    builtIn: z.boolean().meta({ description: "Built-in templates are read-only; copy one to change it." }),
    isDefault: z.boolean().meta({ description: "The workspace's default template." }),
    createdAt: Iso.nullable(),
    updatedAt: Iso.nullable(),
  })
  .meta({ id: "Template" });
export type TemplateDto = z.infer<typeof Template>;

/** Sum of the characters a template gives the model: name, description, context and every section. */
export function templateChars(t: {
  name?: string;
  description?: string;
  context?: string;
  sections?: { title: string; instructions: string }[];
}): number {
  return (
    (t.name?.length ?? 0) +
    (t.description?.length ?? 0) +
    (t.context?.length ?? 0) +
    (t.sections ?? []).reduce((n, s) => n + s.title.length + s.instructions.length, 0)
  );
}

const sections = z
  .array(TemplateSection)
  .min(1, "a template needs at least one section")
  .max(TEMPLATE_LIMITS.sections, `at most ${TEMPLATE_LIMITS.sections} sections`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    for (const [i, s] of list.entries()) {
      const key = s.title.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({
          code: "custom",
          path: [i, "title"],
          message: `"${s.title}" appears twice; section titles must differ`,
        });
      seen.add(key);
    }
  });

const fields = {
  name: z.string().trim().min(1, "is required").max(TEMPLATE_LIMITS.name),
  description: z.string().trim().max(TEMPLATE_LIMITS.description),
  sections,
  context: z.string().trim().max(TEMPLATE_LIMITS.totalChars),
  language: LanguageCode.nullable(),
};

const withinTotal = (t: Parameters<typeof templateChars>[0], ctx: z.RefinementCtx) => {
  const n = templateChars(t);
  if (n > TEMPLATE_LIMITS.totalChars)
    ctx.addIssue({
      code: "custom",
      path: ["sections"],
      message: `the template holds ${n} characters; at most ${TEMPLATE_LIMITS.totalChars}`,
    });
};

/** Every field a template is made of, each optional: what creating and changing one may set. */
const optionalFields = {
  name: fields.name.optional(),
  description: fields.description.optional(),
  sections: fields.sections.optional(),
  context: fields.context.optional(),
  language: fields.language.optional(),
};

export const TemplateCreateBody = z
  .object({
    ...optionalFields,
    copyFrom: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "A template (built-in or the workspace's) whose fields fill in what the body leaves out." }),
    isDefault: z.boolean().optional().meta({ description: "Make it the workspace's default template." }),
  })
  .strict()
  .superRefine(withinTotal)
  .meta({ id: "TemplateCreate" });
export type TemplateCreateInput = z.infer<typeof TemplateCreateBody>;

export const TemplateUpdateBody = z
  .object({
    ...optionalFields,
    isDefault: z.boolean().optional(),
  })
  .strict()
  .superRefine(withinTotal)
  .meta({ id: "TemplateUpdate" });
export type TemplateUpdateInput = z.infer<typeof TemplateUpdateBody>;

export const TemplateEnvelope = z.object({ template: Template }).meta({ id: "TemplateEnvelope" });
export const TemplateList = z.object({ templates: z.array(Template) }).meta({ id: "TemplateList" });

// --- AI configuration ---------------------------------------------------------

const url = z
  .string()
  .trim()
  .url("must be a URL such as https://api.openai.com/v1")
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), "must be an http or https URL");
const vocabulary = z.array(z.string().trim().min(1).max(100)).max(200, "at most 200 terms");

/** A model's name on a vendor's server; null: the server's default. */
const modelName = z.string().trim().min(1).max(200).nullable().optional();

/** A vendor's API key: write-only, stored encrypted; null removes it. */
const secretKey = z
  .string()
  .min(1)
  .max(500)
  .nullable()
  .optional()
  .meta({ description: "Write-only; stored encrypted; null removes it." });

export const AiConfigUpdateBody = z
  .object({
    defaultTemplateId: z.string().min(1).max(200).nullable().optional(),
    transcription: z
      .object({
        engine: z
          .enum(["openai", "whisper", "sphinx"])
          .nullable()
          .optional()
          .meta({ description: "null: the server's engine." }),
        url: url
          .nullable()
          .optional()
          .meta({ description: "An OpenAI-compatible transcription server (for the openai engine)." }),
        model: modelName,
        apiKey: secretKey,
        language: z
          .union([z.literal("auto"), LanguageCode])
          .nullable()
          .optional()
          .meta({ description: "auto (detect) or a code such as en." }),
        vocabulary: vocabulary.optional().meta({ description: "Names and terms passed to the engine as its prompt." }),
        vocabularyOffered: z.array(z.string().trim().min(1).max(100)).max(50, "at most 50 terms").optional().meta({
          description:
            "Extension: names and terms people corrected in transcripts, offered for the vocabulary; an admin takes one by adding it to vocabulary, and sets them aside by writing this list.",
        }),
      })
      .strict()
      .optional(),
    llm: z
      .object({
        engine: z.enum(["openai", "local", "extractive"]).nullable().optional().meta({
          description:
            "What writes notes and answers: openai (the server at url), local (the model set up on this server), extractive (quotes, no model); null: the server's.",
        }),
        url: url
          .nullable()
          .optional()
          .meta({ description: "An OpenAI-compatible chat-completions server; null: the server's." }),
        model: modelName,
        apiKey: secretKey,
      })
      .strict()
      .optional(),
    summaryLanguage: LanguageCode.nullable()
      .optional()
      .meta({ description: "The language summaries are written in; null: the meeting's." }),
    translationLanguage: LanguageCode.nullable()
      .optional()
      .meta({ description: "Write the summary and enhanced note in this language (language-model path)." }),
    speakerSeparation: z.enum(["local", "off"]).optional().meta({
      description:
        "local: split each side of a recording into its voices with the speaker models on this server (sherpa-onnx), once they are set up. off (the default): one speaker per side.",
    }),
  })
  .strict()
  .meta({ id: "AiConfigUpdate" });
export type AiConfigUpdateInput = z.infer<typeof AiConfigUpdateBody>;

/**
 * What a workspace stores: the update's fields without the keys (sealed apart), every
 * one optional (unset means the server's default).
 */
export const AiSettingsValue = AiConfigUpdateBody.extend({
  transcription: AiConfigUpdateBody.shape.transcription.unwrap().omit({ apiKey: true }).optional(),
  llm: AiConfigUpdateBody.shape.llm.unwrap().omit({ apiKey: true }).optional(),
  /** Why the last note could not be split into voices (written by the pipeline, cleared by a success). */
  speakerProblem: z
    .object({ message: z.string().max(1000), at: z.number().int() })
    .nullable()
    .optional(),
  /** Why the local language model could not be used last (written by notes and answers, cleared by a success). */
  llmProblem: z
    .object({ message: z.string().max(1000), at: z.number().int() })
    .nullable()
    .optional(),
});
export type AiSettings = z.infer<typeof AiSettingsValue>;

export const AiConfig = z
  .object({
    defaultTemplateId: z.string().nullable(),
    transcription: z.object({
      engine: z.string().nullable(),
      url: z.string().nullable(),
      model: z.string().nullable(),
      apiKeySet: z.boolean(),
      language: z.string().nullable(),
      vocabulary: z.array(z.string()),
      vocabularyOffered: z.array(z.string()).meta({
        description: "Extension: terms corrected in transcripts and not yet in the vocabulary, newest last.",
      }),
    }),
    llm: z.object({
      engine: z.string().nullable(),
      url: z.string().nullable(),
      model: z.string().nullable(),
      apiKeySet: z.boolean(),
    }),
    localModel: z
      .object({
        file: z.string().nullable().meta({ description: "The GGUF file on this server, or null when none is set up." }),
        engineInstalled: z.boolean().meta({ description: "Whether its engine (node-llama-cpp) is installed." }),
        problem: z.string().nullable().meta({
          description:
            "Why the local model could not be used last (notes were then written offline, answers quoted); null after a success.",
        }),
        problemAt: Iso.nullable(),
      })
      .meta({ description: "The local language model on this server." }),
    localModelsForWorkspaces: z.boolean().meta({
      description:
        "Whether the workspace's admins may set up this server's local models and choose them; false where the operator keeps them (--no-workspace-local-models).",
    }),
    privateUrlsForWorkspaces: z.boolean().meta({
      description:
        "Whether the workspace may use model servers on loopback or private networks (a local Ollama); only the operator allows it (--allow-private-ai-urls).",
    }),
    summaryLanguage: z.string().nullable(),
    translationLanguage: z.string().nullable(),
    speakerSeparation: z.object({
      engine: z.enum(["local", "off"]),
      ready: z.boolean().meta({ description: "Whether the speaker models are on this server." }),
      problem: z
        .string()
        .nullable()
        .meta({ description: "Why the last recording could not be split into voices; null after a success." }),
      problemAt: Iso.nullable(),
    }),
    effective: z
      .object({
        transcription: z
          .string()
          .meta({ description: "The engine notes are transcribed with, after server defaults." }),
        transcriptionLanguage: z.string(),
        summary: z.string().meta({ description: "The summarizer: a model, or the offline extractive method." }),
      })
      .meta({ description: "What applies once the server's own settings fill in what the workspace leaves unset." }),
    updatedAt: Iso.nullable(),
  })
  .meta({ id: "AiConfig" });
export type AiConfigDto = z.infer<typeof AiConfig>;
export const AiConfigEnvelope = z.object({ aiConfig: AiConfig }).meta({ id: "AiConfigEnvelope" });

// --- Speakers and enhancing a note -------------------------------------------

export const Speaker = z
  .object({
    label: z.string().meta({ description: "The label the speech engine gave." }),
    name: z.string().meta({ description: "The name shown in the transcript: a given name, else the label." }),
    email: z.string().nullable(),
    suggested: z.boolean().meta({
      description:
        "The name was offered because the voice sounds like one named in an earlier meeting; naming the speaker (the same name confirms it) makes it theirs.",
    }),
    talkTimeSec: z.number().int(),
    segments: z.number().int(),
  })
  .meta({ id: "Speaker" });
export const SpeakerList = z.object({ speakers: z.array(Speaker) }).meta({ id: "SpeakerList" });

export const SpeakerRenameBody = z
  .object({
    label: z.string().min(1, "is required").max(200),
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .meta({ description: "The name to show; null gives the label back." }),
    email: z
      .string()
      .trim()
      .email("must be an email address")
      .max(320)
      .optional()
      .meta({ description: "A participant or member: the name is theirs." }),
  })
  .strict()
  .refine((b) => b.name !== undefined || b.email !== undefined, { message: "give name or email", path: ["name"] })
  .meta({ id: "SpeakerRename" });

export const EnhanceBody = z
  .object({
    templateId: z
      .string()
      .min(1, "is required")
      .max(200)
      .optional()
      .meta({ description: "Unset: the note's folder default, else the workspace default." }),
    discardEdits: z.boolean().optional().meta({
      description: "Write the summary and enhanced note anew even though a person edited them (else 409).",
    }),
  })
  .strict()
  .meta({ id: "EnhanceNote" });
