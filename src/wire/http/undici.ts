/**
 * The only module that imports undici: between a snapshot and a restore of the process's global
 * dispatcher, so that importing the library leaves it as the host had it. The library never uses
 * the global dispatcher: every request names its own agent. The order of the three imports is
 * the point of this file.
 */
import './undici-global-snapshot.js';

export { Agent, type Dispatcher, EnvHttpProxyAgent, ProxyAgent } from 'undici';

import './undici-global-restore.js';
