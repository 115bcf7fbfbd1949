import { App } from './app/app';
import { mount } from './lib/mount';
import { registerConsoleWorker } from './lib/offline/service-worker';

mount(<App />);
registerConsoleWorker();
