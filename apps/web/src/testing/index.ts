/** The web test kit: render a page with its providers, fake the API, build what the API answers. */
export * from './dashboard';
export * from './factories';
export { deferred, type FakeCall, type FakeReply, type FakeRoute, fakeApi, json } from './fake-api';
export { type RenderOptions, renderPage, signIn, testQueryClient } from './render';
export { renderAtWidth } from './screen-width';
export * from './two-factor';
export { card, fill, optionTexts } from './user-input';
