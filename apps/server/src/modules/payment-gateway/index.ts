/**
 * Online payment's public surface (issue 29, ADR 053): Razorpay Payment Links, the signed webhook and
 * the reconciler. Other modules, the app and the start-up code import only this; it reaches fees only
 * through fees/index.ts.
 */
export { familyPaymentLink } from './links';
export { RazorpayReconciler, type ReconcileResult, reconcileOnce } from './reconciler';
export { findOpenLink } from './repository';
export { registerPaymentGatewayRoutes } from './routes';
