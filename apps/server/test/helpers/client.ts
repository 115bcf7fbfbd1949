import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import {
  auth,
  createStudent,
  createTeacher,
  createTestApp,
  familyWithCode,
  type TestApp,
  type TestAppOptions,
} from './test-app';
import { type MultipartPart, multipartBody } from './workbooks';

/**
 * A test client on app.inject that knows who is calling:
 *
 *   const api = await testClient();
 *   await api.as('admin').post('/api/v1/students/', body);
 *   await api.as('teacher').get('/api/v1/students/');
 *   await api.as('parent', family).get('/api/v1/parent/me');
 *   await api.anonymous().post('/api/v1/auth/login', undefined, { form: { username, password } });
 *
 * Every call answers light-my-request's response as it is (statusCode, headers, body, json()), so a
 * test checks exactly what the server sent. Tokens are fetched once, when first needed.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

export interface CallOptions {
  /** More headers; they win over the caller's authorization. */
  headers?: Record<string, string>;
  /** The client's address, as the throttles see it. */
  remoteAddress?: string;
  /** A form body (`application/x-www-form-urlencoded`), as the sign-in page posts it. */
  form?: Record<string, string>;
  /** A body sent as it is (a multipart upload, a broken JSON text), with its own content-type header. */
  raw?: string | Buffer;
  /** A JSON text sent as it is (a malformed or empty one included), with the JSON content type. */
  json?: string;
}

export interface Caller {
  get(url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  delete(url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** A JSON body unless options.form or options.raw says otherwise. */
  post(url: string, body?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  request(method: Method, url: string, body?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** A multipart/form-data POST of these parts, as a browser uploads a file. */
  upload(url: string, parts: MultipartPart[], options?: CallOptions): Promise<LightMyRequestResponse>;
  /** The bearer token this caller sends (an anonymous caller has none, and says so). */
  token(): Promise<string>;
}

/** Anyone holding a token: a teacher from signInNewTeacher, a family with a signed parent token. */
export interface TokenHolder {
  token: string;
}

/** A family that signs in through the parent app with its phone and access code. */
export interface FamilyCode {
  phone: string;
  code: string;
}

export interface TestClient extends TestApp {
  /** The first-start admin, or the app's own test teacher, or another identity holding a token. */
  as(role: 'admin' | 'teacher', who?: TokenHolder): Caller;
  /** A parent: with its token, or signed in through the parent app with its phone and code. */
  as(role: 'parent', family: TokenHolder | FamilyCode): Caller;
  /** Any bearer token as it is, forged and expired ones included. */
  withToken(token: string): Caller;
  /** No authorization header at all. */
  anonymous(): Caller;
  /** Creates a student as the admin (defaults filled in) and answers it. */
  student(fields?: Record<string, unknown>): ReturnType<typeof createStudent>;
  /** Creates a teacher as the admin (defaults filled in) and answers it, initial password included. */
  teacher(fields?: Record<string, unknown>): ReturnType<typeof createTeacher>;
  /** A new student on a new phone, and the parent app access code the admin issued for it. */
  family(fields?: Record<string, unknown>): ReturnType<typeof familyWithCode>;
}

let addressCounter = 0;
/** A client address no other call of this test file has used, so per-address throttles stay out of the way. */
export function freshAddress(): string {
  addressCounter += 1;
  return `10.${40 + Math.floor(addressCounter / 62_500)}.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

/**
 * A caller on any app (one a test built itself, such as a second instance on the same database):
 * with `token` as its bearer, or anonymous without one.
 */
export function callerOf(app: FastifyInstance, token?: string): Caller {
  return caller(app, async () => token);
}

function caller(app: FastifyInstance, token: () => Promise<string | undefined>): Caller {
  const known = async () => {
    const bearer = await token();
    if (bearer === undefined) throw new Error('an anonymous caller has no token');
    return bearer;
  };
  const request: Caller['request'] = async (method, url, body, options = {}) => {
    const bearer = await token();
    const headers: Record<string, string> = bearer === undefined ? {} : auth(bearer);
    const injected: InjectOptions = { method, url };
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      injected.payload = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      injected.payload = options.json;
    } else if (options.raw !== undefined) injected.payload = options.raw;
    else if (body !== undefined) injected.payload = body as InjectOptions['payload'];
    injected.headers = { ...headers, ...options.headers };
    if (options.remoteAddress) injected.remoteAddress = options.remoteAddress;
    return app.inject(injected);
  };
  return {
    request,
    token: known,
    get: (url, options) => request('GET', url, undefined, options),
    delete: (url, options) => request('DELETE', url, undefined, options),
    post: (url, body, options) => request('POST', url, body, options),
    put: (url, body, options) => request('PUT', url, body, options),
    upload: (url, parts, options = {}) => {
      const body = multipartBody(parts);
      return request('POST', url, undefined, {
        ...options,
        headers: { ...body.headers, ...options.headers },
        raw: body.payload,
      });
    },
  };
}

/** The client for an app already built (one with options of its own, or shared by several clients). */
export function clientOf(t: TestApp): TestClient {
  const parentTokens = new Map<string, Promise<string>>();
  const parentToken = (family: FamilyCode): Promise<string> => {
    const key = `${family.phone} ${family.code}`;
    let token = parentTokens.get(key);
    if (!token) {
      token = (async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/v1/parent/login',
          payload: { phone: family.phone, code: family.code },
          remoteAddress: freshAddress(),
        });
        if (response.statusCode !== 200)
          throw new Error(`parent sign-in failed: ${response.statusCode} ${response.body}`);
        return response.json().access_token as string;
      })();
      parentTokens.set(key, token);
    }
    return token;
  };
  const as = (role: 'admin' | 'teacher' | 'parent', who?: TokenHolder | FamilyCode): Caller => {
    if (who && 'token' in who) return callerOf(t.app, who.token);
    if (role === 'admin') return caller(t.app, t.adminToken);
    if (role === 'teacher') return caller(t.app, t.teacherToken);
    if (!who) throw new Error('as("parent") needs the family: its token, or its phone and code');
    return caller(t.app, () => parentToken(who));
  };
  return {
    ...t,
    as: as as TestClient['as'],
    withToken: (token) => callerOf(t.app, token),
    anonymous: () => callerOf(t.app),
    student: async (fields) => createStudent(t.app, await t.adminToken(), fields),
    teacher: async (fields) => createTeacher(t.app, await t.adminToken(), fields),
    family: async (fields) => familyWithCode(t.app, await t.adminToken(), fields),
  };
}

/** A fresh app (see createTestApp) with its client. */
export async function testClient(options: TestAppOptions = {}): Promise<TestClient> {
  return clientOf(await createTestApp(options));
}

/**
 * A fresh test client for the enclosing describe block (or file): opened before its tests, closed
 * after them. Answers a getter, as the client exists only once the block has started.
 */
export function testClientForBlock(options: TestAppOptions | (() => Promise<TestAppOptions>) = {}): () => TestClient {
  let client: TestClient | undefined;
  beforeAll(async () => {
    client = await testClient(typeof options === 'function' ? await options() : options);
  });
  afterAll(async () => {
    await client?.close();
  });
  return () => {
    if (!client) throw new Error('the test client opens before the tests of its block');
    return client;
  };
}
