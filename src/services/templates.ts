// Meeting templates: the built-in ones (read-only, in code) and a workspace's own,
// the workspace default and folder defaults, and which template a note is enhanced with.
import type { Repositories } from "../db/repos/index.js";
import type { TemplateRow } from "../db/repos/templates.js";
import { BUILTIN_TEMPLATES, builtinTemplate, GENERAL_TEMPLATE_ID, type TemplateSpec } from "../ai/templates/builtin.js";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../core/errors.js";
import { ownedPolicy, workspacePolicy } from "../core/access.js";
import { newId } from "../core/ids.js";
import { iso, type Clock } from "../core/clock.js";
import type { Principal } from "../core/principal.js";
import {
  templateChars,
  TEMPLATE_LIMITS,
  type TemplateCreateInput,
  type TemplateDto,
  type TemplateUpdateInput,
} from "../shared/schemas/templates.js";
import type { AiSettingsStore } from "./ai-config.js";

/** Enough for any team; a bound so that one workspace cannot fill the database. */
const MAX_TEMPLATES = 500;

const specOf = (row: TemplateRow): TemplateSpec => ({
  id: row.id,
  name: row.name,
  description: row.description,
  sections: row.sections,
  context: row.context,
  language: row.language,
  builtIn: false,
});

/** The workspace's default template is part of its AI configuration: an admin's choice. */
function requireDefaultChooser(p: Principal) {
  if (!workspacePolicy.configureAi(p))
    throw new ForbiddenError("Only an admin can choose the workspace's default template.");
}

export function createTemplateService(repos: Repositories, settings: AiSettingsStore, now: Clock) {
  function present(spec: TemplateSpec, row: TemplateRow | null, defaultId: string): TemplateDto {
    return {
      id: spec.id,
      name: spec.name,
      description: spec.description,
      sections: spec.sections.map((s) => ({ title: s.title, instructions: s.instructions })),
      context: spec.context,
      language: spec.language,
      builtIn: spec.builtIn,
      isDefault: spec.id === defaultId,
      createdAt: row ? iso(row.createdAt) : null,
      updatedAt: row ? iso(row.updatedAt) : null,
    };
  }

  /** The workspace default: the one it chose, while that still exists, else the general built-in. */
  async function defaultId(workspaceId: string): Promise<string> {
    const chosen = (await settings.read(workspaceId)).defaultTemplateId;
    if (chosen && (await find(workspaceId, chosen))) return chosen;
    return GENERAL_TEMPLATE_ID;
  }

  async function find(
    workspaceId: string,
    id: string,
  ): Promise<{ spec: TemplateSpec; row: TemplateRow | null } | null> {
    const builtIn = builtinTemplate(id);
    if (builtIn) return { spec: builtIn, row: null };
    const row = await repos.templates.get(workspaceId, id);
    return row ? { spec: specOf(row), row } : null;
  }

  async function setDefault(workspaceId: string, id: string | null) {
    await settings.write(workspaceId, (s) => ({ ...s, defaultTemplateId: id }));
  }

  return {
    async list(p: Principal): Promise<TemplateDto[]> {
      const def = await defaultId(p.workspaceId);
      const own = await repos.templates.list(p.workspaceId);
      return [...BUILTIN_TEMPLATES.map((t) => present(t, null, def)), ...own.map((r) => present(specOf(r), r, def))];
    },

    async get(p: Principal, id: string): Promise<TemplateDto> {
      const found = await find(p.workspaceId, id);
      if (!found) throw new NotFoundError(`Template ${id} not found.`);
      return present(found.spec, found.row, await defaultId(p.workspaceId));
    },

    async create(p: Principal, input: TemplateCreateInput): Promise<TemplateDto> {
      if (input.isDefault) requireDefaultChooser(p);
      let base: TemplateSpec | null = null;
      if (input.copyFrom) {
        base = (await find(p.workspaceId, input.copyFrom))?.spec ?? null;
        if (!base) throw new BadRequestError(`copyFrom: no template ${input.copyFrom} in this workspace.`);
      }
      const name = input.name ?? (base ? `${base.name} (copy)`.slice(0, TEMPLATE_LIMITS.name) : undefined);
      const sections = input.sections ?? base?.sections;
      if (!name) throw new BadRequestError("name: is required.");
      if (!sections) throw new BadRequestError("sections: a template needs at least one section.");
      const t = now();
      const row: TemplateRow = {
        id: newId("tpl"),
        workspaceId: p.workspaceId,
        name,
        description: input.description ?? base?.description ?? "",
        sections: sections.map((s) => ({ title: s.title, instructions: s.instructions })),
        context: input.context ?? base?.context ?? "",
        language: input.language !== undefined ? input.language : (base?.language ?? null),
        createdBy: p.userId,
        createdAt: t,
        updatedAt: t,
      };
      // A copy may only pass the limit once the copied fields join the given ones.
      if (templateChars(row) > TEMPLATE_LIMITS.totalChars)
        throw new BadRequestError(
          `sections: the template holds ${templateChars(row)} characters; at most ${TEMPLATE_LIMITS.totalChars}.`,
        );
      if ((await repos.templates.count(p.workspaceId)) >= MAX_TEMPLATES)
        throw new ConflictError(
          `This workspace has ${MAX_TEMPLATES} templates, the most it can have; delete one first.`,
        );
      await repos.transaction(async () => {
        await repos.templates.insert(row);
        if (input.isDefault) await setDefault(p.workspaceId, row.id);
      });
      return present(specOf(row), row, await defaultId(p.workspaceId));
    },

    async update(p: Principal, id: string, input: TemplateUpdateInput): Promise<TemplateDto> {
      const found = await find(p.workspaceId, id);
      if (!found) throw new NotFoundError(`Template ${id} not found.`);
      const { isDefault, ...fields } = input;
      const changesContent = Object.keys(fields).length > 0;
      if (isDefault !== undefined) requireDefaultChooser(p);
      if (
        changesContent &&
        found.row &&
        !ownedPolicy.manage(p, { workspaceId: found.row.workspaceId, ownerUserId: found.row.createdBy })
      )
        throw new ForbiddenError(
          "Only the template's author or an admin can change it; copy it (POST /v1/templates with copyFrom) to make your own.",
        );
      if (found.spec.builtIn && changesContent)
        throw new ConflictError(
          `${found.spec.name} is a built-in template and cannot be changed; copy it (POST /v1/templates with copyFrom) and change the copy.`,
        );
      if (changesContent) {
        const next = { ...found.row!, ...fields, updatedAt: now() };
        if (templateChars(next) > TEMPLATE_LIMITS.totalChars)
          throw new BadRequestError(
            `sections: the template would hold ${templateChars(next)} characters; at most ${TEMPLATE_LIMITS.totalChars}.`,
          );
        await repos.templates.update(p.workspaceId, id, { ...fields, updatedAt: next.updatedAt });
      }
      if (isDefault === true) await setDefault(p.workspaceId, id);
      if (isDefault === false && (await defaultId(p.workspaceId)) === id) await setDefault(p.workspaceId, null);
      return this.get(p, id);
    },

    async delete(p: Principal, id: string): Promise<void> {
      if (builtinTemplate(id)) throw new ConflictError("Built-in templates cannot be deleted.");
      const row = await repos.templates.get(p.workspaceId, id);
      if (row && !ownedPolicy.manage(p, { workspaceId: row.workspaceId, ownerUserId: row.createdBy }))
        throw new ForbiddenError("Only the template's author or an admin can delete it.");
      await repos.transaction(async () => {
        if (!(await repos.templates.delete(p.workspaceId, id))) throw new NotFoundError(`Template ${id} not found.`);
        if ((await settings.read(p.workspaceId)).defaultTemplateId === id) await setDefault(p.workspaceId, null);
      });
    },

    /** For a field that names a template: the id, or 400 naming the field (another workspace's is unknown here). */
    async require(workspaceId: string, id: string, field: string): Promise<TemplateSpec> {
      const found = await find(workspaceId, id);
      if (!found) throw new BadRequestError(`${field}: no template ${id} in this workspace.`);
      return found.spec;
    },

    /** A template by id for a reader (the note read names its template), or null once deleted. */
    async spec(workspaceId: string, id: string): Promise<TemplateSpec | null> {
      return (await find(workspaceId, id))?.spec ?? null;
    },

    /**
     * The template a note is enhanced with when none is asked for: the default of the
     * first of its folders (by name) that has one, else the workspace default.
     */
    async forNote(workspaceId: string, noteId: string): Promise<TemplateSpec> {
      const folders = (await repos.notes.foldersOf([noteId])).get(noteId) ?? [];
      const rows = await repos.folders.existing(
        workspaceId,
        folders.map((f) => f.id),
      );
      const byName = [...rows].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
      for (const folder of byName) {
        if (!folder.templateId) continue;
        const found = await find(workspaceId, folder.templateId);
        if (found) return found.spec;
      }
      return (await find(workspaceId, await defaultId(workspaceId)))!.spec;
    },
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
