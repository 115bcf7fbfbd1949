import { App } from './app/app';
import { mount } from './lib/mount';

mount(<App />);
