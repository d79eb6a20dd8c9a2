/**
 * Who the signed-in key is and what the server offers, read once at sign-in from `viewer`
 * and `serverInfo`: nothing is tried, so nothing is denied or recorded. The explorer shows
 * only the controls the key may use.
 */
import { graphql } from '../gql';
import type { OpenSessionQuery } from '../gql/graphql';

export const OpenSession = graphql(`
  query OpenSession($space: String!) {
    viewer { name tenant role capabilities allowedSpaces tenantWide local }
    serverInfo { version llmConfigured neo4jBrowserUrl }
    changeCursor(space: $space)
    stats(space: $space) { space }
  }
`);

export const SwitchSpace = graphql(`
  query SwitchSpace($space: String!) {
    changeCursor(space: $space)
    stats(space: $space) { space }
  }
`);

export type Viewer = OpenSessionQuery['viewer'];
export type ServerInfo = OpenSessionQuery['serverInfo'];

export interface Capabilities {
  write: boolean;
  approve: boolean;
  /** The audit log and receipts: the verify capability, on a key for the whole tenant. */
  audit: boolean;
}

export const NONE: Capabilities = { write: false, approve: false, audit: false };

export function capabilitiesOf(viewer: Viewer): Capabilities {
  const has = (c: string) => viewer.capabilities.includes(c);
  return { write: has('write'), approve: has('approve'), audit: has('verify') && viewer.tenantWide };
}
