import { useDefaults } from '#lib/config.ts';

// Imported first by scripts/bench.ts, so that it runs before any module reads the environment
// (the SDK reads its Node.js version warning switch when it is loaded).
useDefaults({ LOG_LEVEL: 'error', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
