import type { AppContext } from '../../context';
import type { ZodApp } from '../../plugins/zod-app';

export function registerStudentRoutes(_app: ZodApp, _ctx: AppContext): void {}
