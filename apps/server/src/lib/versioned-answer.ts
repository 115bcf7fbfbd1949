import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import { KeptValues, textBytes } from '../db/read-cache';
import { COMPRESSION_THRESHOLD, compressText, keptEncoding } from '../plugins/compression';
import { Gate } from './gate';
import { today } from './time';

/** The kinds of data whose versions the database keeps (migration 0010): each names a few tables. */
export const DATA_KINDS = [
  'accounts',
  'activities',
  'attendance',
  'families',
  'messages',
  'settings',
  'students',
  'teacher_attendance',
  'teachers',
] as const;
export type DataKind = (typeof DATA_KINDS)[number];

/** What a list answer is built from, beyond its route and query. */
export interface AnswerDependencies {
  /** The kinds of data it reads: a write to any of them makes a new answer. */
  kinds: readonly DataKind[];
  /** Its text differs by caller (their unread marks, their classes): the caller's id is part of its name. */
  perUser?: boolean;
  /** It changes with the clock ("5 minutes ago", families not reached after 30 minutes): once a minute. */
  perMinute?: boolean;
}

/**
 * Built answers, kept by name (route, query, caller where it matters, and the data versions they were
 * built under), the least recently used dropped first once `maxBytes` is reached; an answer over a
 * quarter of it is not kept. An answer is only ever served under the versions it was built under, so
 * a write on any instance (which raises a version in its own transaction) makes the next read build
 * anew: nothing is invalidated, nothing can be stale. `maxBytes` 0 keeps nothing. `keepText` false
 * keeps only compressed answers: the embedded database's read cache already holds the text, and
 * keeping it twice would spend the memory twice.
 */
export class AnswerCache {
  private readonly kept: KeptValues;
  private readonly keepsText: boolean;

  constructor(maxBytes: number, options: { keepText?: boolean } = {}) {
    this.kept = new KeptValues(maxBytes, 4);
    this.keeps = maxBytes > 0;
    this.keepsText = options.keepText ?? true;
  }

  /** Whether it keeps anything (0 bytes keeps nothing). */
  readonly keeps: boolean;

  /** The kept answer named `key`, or `build()`'s; callers asking while it is built share it. */
  get(key: string, build: () => Promise<string>): Promise<string> {
    if (!this.keepsText) return build();
    return this.kept.get(key, build, textBytes);
  }

  /** Bytes kept by `key` (a compressed answer), or `build()`'s. */
  getBytes(key: string, build: () => Promise<Buffer>): Promise<Buffer> {
    return this.kept.get(key, build, (bytes) => bytes.length);
  }

  /** Bytes held now. */
  size(): number {
    return this.kept.size();
  }
}

/** Every kind's current version, in one small query (answered from the read cache on PGlite). */
async function readAllVersions(db: Queryable): Promise<ReadonlyMap<string, string>> {
  const rows = await db.queryCached<{ kind: string; version: string }>(
    'SELECT kind, version::text AS version FROM data_versions',
  );
  return new Map(rows.map((row) => [row.kind, row.version]));
}

/** The versions a request has read: once per request, whatever asks (its session check, its answer). */
const versionsOfRequest = new WeakMap<object, Promise<ReadonlyMap<string, string>>>();

/**
 * The current versions of `kinds`, as `kind=version` joined by commas in kind order. Asked for a
 * request, they are read once and the same versions serve everything the request builds.
 */
export async function readVersions(db: Queryable, kinds: readonly DataKind[], request?: object): Promise<string> {
  let all = request ? versionsOfRequest.get(request) : undefined;
  if (!all) {
    all = readAllVersions(db);
    if (request) versionsOfRequest.set(request, all);
  }
  const versions = await all;
  return [...new Set(kinds)]
    .sort()
    .map((kind) => `${kind}=${versions.get(kind) ?? ''}`)
    .join(',');
}

/**
 * A value built from `kinds` of data, kept in `ctx.answers` by `name` and the kinds' versions (read
 * once for the request): while no write changes them, the value costs no query but the versions'.
 * Kept as JSON, so each caller gets its own copy.
 */
export async function keptUnderVersions<T>(
  ctx: { answers: AnswerCache; db: Queryable },
  request: object,
  kinds: readonly DataKind[],
  name: string,
  build: () => Promise<T>,
): Promise<T> {
  const versions = await readVersions(ctx.db, kinds, request);
  const text = await ctx.answers.get(`${name}\n${versions}`, async () => JSON.stringify(await build()));
  return JSON.parse(text) as T;
}

/**
 * A session check kept under the versions of what it reads (`keptUnderVersions`): `load` answers the
 * account's current token version and what the session carries, or null when the account is gone.
 * Answers what the session carries, or undefined when the token's version is not the account's.
 */
export async function keptSession<S>(
  ctx: { answers: AnswerCache; db: Queryable },
  request: object,
  kinds: readonly DataKind[],
  name: string,
  tokenVersion: number,
  load: () => Promise<{ token_version: number; session: S } | null>,
): Promise<S | undefined> {
  const account = await keptUnderVersions(ctx, request, kinds, `session\n${name}`, load);
  return account && account.token_version === tokenVersion ? account.session : undefined;
}

/** Does an If-None-Match header name this entity tag (a list of tags, or `*`)? */
export function matchesEntityTag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * The entity tag of a list answer named by what it is built from: its route and query, the centre's
 * date, the caller and the minute where they matter, and the current versions of its kinds. Sets it
 * on the reply and says whether the client already holds that answer (`If-None-Match`).
 */
async function tagAnswer(
  ctx: { db: Queryable },
  request: FastifyRequest,
  reply: FastifyReply,
  dependencies: AnswerDependencies,
): Promise<{ name: string; versions: string; unchanged: boolean }> {
  const versions = await readVersions(ctx.db, dependencies.kinds, request);
  const now = new Date();
  const name = [
    request.method,
    request.url,
    today(now),
    dependencies.perUser ? `user=${request.user?.id ?? ''}` : '',
    dependencies.perMinute ? now.toISOString().slice(0, 16) : '',
    versions,
  ].join('\n');
  const etag = `"${createHash('sha256').update(name).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag);
  return { name, versions, unchanged: matchesEntityTag(request.headers['if-none-match'], etag) };
}

/**
 * Sends a list answer with its tag: 304 with no body when the client already holds it, after one
 * small query for the versions and nothing else; otherwise the kept answer, or a new one from
 * `build`. The same data on any instance has the same tag, so a console switched between instances
 * still gets its 304s.
 */
export async function sendVersioned(
  ctx: { answers: AnswerCache; db: Queryable },
  request: FastifyRequest,
  reply: FastifyReply,
  dependencies: AnswerDependencies,
  build: () => Promise<string>,
): Promise<FastifyReply> {
  const { name, unchanged } = await tagAnswer(ctx, request, reply, dependencies);
  if (unchanged) return reply.code(304).send();
  let text: string;
  try {
    text = await ctx.answers.get(name, build);
  } catch (error) {
    // An error answer carries no tag: nothing may later be confirmed unchanged against it.
    reply.removeHeader('etag');
    throw error;
  }
  reply.type('application/json; charset=utf-8');
  // A large answer is kept compressed too, in the encoding the client asks for: the next read of
  // unchanged data is sent without building or compressing anything.
  const encoding = ctx.answers.keeps ? keptEncoding(request.headers['accept-encoding']) : undefined;
  if (encoding && text.length >= COMPRESSION_THRESHOLD) {
    const bytes = await ctx.answers.getBytes(`${name}\nencoding=${encoding}`, () => compressText(text, encoding));
    return reply.header('content-encoding', encoding).header('vary', 'accept-encoding').send(bytes);
  }
  return reply.send(text);
}

/** Streamed answers being sent at once, in this process. */
export const STREAMS = new Gate(4);

/**
 * `sendVersioned` for answers too large to hold at once: the JSON array is sent as `parts` yields it
 * (each part the text of an array, `[]` included), never whole in memory. `parts` may keep each part
 * in the kept answers by its own name (`keep`): a part of unchanged data is then sent from memory,
 * each within the kept answers' bound, never the whole answer. A part's text must follow from its name
 * and the data's versions alone (and the caller, for `perUser`): every request to the route shares it.
 */
export async function streamVersioned(
  ctx: { answers: AnswerCache; db: Queryable },
  request: FastifyRequest,
  reply: FastifyReply,
  dependencies: AnswerDependencies,
  parts: (keep: (part: string, build: () => Promise<string>) => Promise<string>) => AsyncIterable<string>,
): Promise<FastifyReply> {
  const { versions, unchanged } = await tagAnswer(ctx, request, reply, dependencies);
  if (unchanged) return reply.code(304).send();
  // Each stream holds its database page, its part and its compressor while it is sent: a few at once
  // keep the memory bounded however many are asked for, and cost no throughput (two cores are busy
  // with four). The place is left when the answer is sent or the client goes.
  let gone = false;
  const goneWhileWaiting = () => {
    gone = true;
  };
  reply.raw.once('close', goneWhileWaiting);
  const leave = await STREAMS.enter();
  reply.raw.off('close', goneWhileWaiting);
  if (gone) leave();
  else reply.raw.once('close', leave);
  // A part is named by the route, not the request: ranges that overlap share their days.
  const route = [
    request.method,
    request.routeOptions.url,
    dependencies.perUser ? `user=${request.user?.id ?? ''}` : '',
    versions,
  ].join('\n');
  const keep = (part: string, build: () => Promise<string>) => ctx.answers.get(`${route}\npart=${part}`, build);
  async function* joined() {
    yield '[';
    let first = true;
    for await (const part of parts(keep)) {
      const inner = part.slice(1, -1);
      if (inner === '') continue;
      yield first ? inner : `,${inner}`;
      first = false;
    }
    yield ']';
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(joined()));
}
