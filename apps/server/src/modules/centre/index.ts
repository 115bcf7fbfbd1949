/**
 * The centre module's public surface: the centre's own settings (name, logo, time zone; ADR 042) and
 * the clock every date follows. Other modules read the centre's name through `readCentreName`; the
 * start-up code sets the clock with `followCentreClock` and keeps it in step with `CentreClockLoop`.
 */
export { CentreClockLoop, followCentreClock } from './clock';
export { readLogo } from './repository';
export { registerCentreRoutes } from './routes';
export { CENTRE_NAME_SETTING, readCentreName } from './settings';
