import '../local/tool.ts';
import { useDefaults } from '../local/settings.ts';

// Imported first by scripts/bench.ts, so that it runs before any module reads the environment.
useDefaults({ LOG_LEVEL: 'error' });
