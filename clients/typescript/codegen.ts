/**
 * The typed documents are generated from the server's schema and the operations shared with
 * the Python client, never written by hand: `npm run codegen` (or `make clients` from the
 * repository's root) rewrites src/generated/, `npm run codegen:check` fails when the committed
 * file differs from what they produce.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../../schema/schema.graphql',
  documents: ['../operations.graphql'],
  ignoreNoDocuments: false,
  generates: {
    'src/generated/graphql.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        scalars: { DateTime: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
      },
    },
  },
};

export default config;
