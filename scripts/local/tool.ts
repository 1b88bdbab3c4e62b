import { silenceSdkNodeVersionWarning } from './settings.ts';

// Imported first by every script (npm start, admin, seed, bench), before any module builds an AWS
// SDK client: the SDK reads its Node.js version warning switch when it builds one.
silenceSdkNodeVersionWarning();
