import './local/tool.ts';
import { localSettings, useDefaults } from './local/settings.ts';
import { describeFailure } from './admin/run.ts';
import { describeSeed, seed, SeedError } from './seed/run.ts';

// `npm run seed`: demo data for the running local stack (`npm start` in another terminal).
// The API is at API_URL, default http://127.0.0.1:$PORT/api/v1 (PORT 3000); DynamoDB at
// DYNAMODB_ENDPOINT, default http://127.0.0.1:$DYNAMODB_PORT (8000); the table is TABLE_NAME.
// Running it again adds nothing and prints the same accounts.

const { apiUrl, defaultDynamodbEndpoint } = localSettings();
useDefaults({ DYNAMODB_ENDPOINT: defaultDynamodbEndpoint, AWS_REGION: 'us-east-1' });

seed({ apiUrl, progress: (step) => process.stderr.write(`seeding ${step}…\n`) }).then(
  (report) => console.log(describeSeed(report, apiUrl)),
  (error: unknown) => {
    console.error(error instanceof SeedError ? error.message : describeFailure(error));
    process.exit(1);
  },
);
