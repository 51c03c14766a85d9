import type { Config } from './config.js';
import type { LoginThrottle } from './features/auth/login-throttle.js';
import type { Stores } from './stores.js';

/** What feature routes need from the app, handed to each feature's route function. */
export interface AppContext {
  config: Config;
  stores: Stores;
  loginThrottle: LoginThrottle;
}
