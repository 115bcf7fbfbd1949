import type { AppContext } from '../../context';
import type { ZodApp } from '../../plugins/zod-app';

export function registerImportRoutes(_app: ZodApp, _ctx: AppContext): void {}
