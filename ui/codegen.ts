/**
 * Operation types are generated from the exported SDL (`schema/schema.graphql`), never
 * written by hand: `npm run codegen` rewrites src/gql/, `npm run codegen:check` fails when
 * the committed files differ from what the schema and the operations produce.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../schema/schema.graphql',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**', '!src/ide/**'],
  ignoreNoDocuments: false,
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        scalars: { DateTime: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
      },
    },
  },
};

export default config;
