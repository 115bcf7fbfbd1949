import type { MessageTemplate, SaveMessageTemplateBody } from '@tuitiondesk/contract';
import type { AppContext } from '../../context';
import { type Actor, recordActivity } from '../../lib/activity-log';
import { ConflictError, isUniqueViolation, NotFoundError, ValidationError } from '../../lib/errors';
import {
  deleteTemplate,
  findNameClash,
  findTemplate,
  insertTemplate,
  listTemplates,
  lockTemplate,
  replaceTexts,
  updateTemplate,
} from './repository';

export function getTemplates(ctx: AppContext): Promise<MessageTemplate[]> {
  return listTemplates(ctx.db);
}

const nameTaken = (name: string) => new ConflictError('template.name_taken', { name });
const notFound = (id: number) => new NotFoundError('template.not_found', { id });

/** A new notice template (the absence and late alerts exist once, from the start). */
export async function createTemplate(
  ctx: AppContext,
  actor: Actor,
  body: SaveMessageTemplateBody,
): Promise<MessageTemplate> {
  if (body.purpose !== 'notice') {
    throw new ValidationError('purpose', 'validation.notice_only');
  }
  return ctx.db.transaction(async (tx) => {
    const clash = await findNameClash(tx, body.name, null);
    if (clash) throw nameTaken(clash);
    const created = await insertTemplate(tx, { ...body, updatedBy: actor.full_name });
    // Another admin took the name between the check and the insert.
    if (created === 0) throw nameTaken(body.name);
    await replaceTexts(tx, created, body.texts);
    await recordActivity(tx, actor, 'templates.created', 'templates.created', { name: body.name });
    return (await findTemplate(tx, created)) as MessageTemplate;
  });
}

/** Replaces a template's name, subject and texts; its purpose stays what it is. */
export async function saveTemplate(
  ctx: AppContext,
  actor: Actor,
  id: number,
  body: SaveMessageTemplateBody,
): Promise<MessageTemplate> {
  return ctx.db
    .transaction(async (tx) => {
      const current = await lockTemplate(tx, id);
      if (!current) throw notFound(id);
      if (current.purpose !== body.purpose) {
        throw new ValidationError('purpose', 'validation.purpose_fixed', { purpose: current.purpose });
      }
      const clash = await findNameClash(tx, body.name, id);
      if (clash) throw nameTaken(clash);
      if (!(await updateTemplate(tx, id, { ...body, updatedBy: actor.full_name }))) throw nameTaken(body.name);
      await replaceTexts(tx, id, body.texts);
      await recordActivity(tx, actor, 'templates.updated', 'templates.updated', {
        name: body.name,
        languages: body.texts.map((t) => t.language).join(', '),
      });
      return (await findTemplate(tx, id)) as MessageTemplate;
    })
    .catch((error: unknown) => {
      // Another admin gave the same name to another template between the check and the update.
      if (isUniqueViolation(error, 'message_templates_name_key')) throw nameTaken(body.name);
      throw error;
    });
}

export async function removeTemplate(ctx: AppContext, actor: Actor, id: number): Promise<{ message: string }> {
  return ctx.db.transaction(async (tx) => {
    const current = await lockTemplate(tx, id);
    if (!current) throw notFound(id);
    if (current.purpose !== 'notice') {
      throw new ConflictError('template.in_use', { purpose: current.purpose });
    }
    await deleteTemplate(tx, id);
    await recordActivity(tx, actor, 'templates.deleted', 'templates.deleted', { name: current.name });
    return { message: `Template "${current.name}" deleted` };
  });
}
