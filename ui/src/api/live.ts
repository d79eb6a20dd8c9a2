/**
 * The space's counts and the four live channels. Each subscription starts `after` the
 * change cursor read at sign-in (before any view read its data), and resumes after the last
 * event it delivered when the connection comes back (api/client.ts), so nothing committed
 * in between is missed.
 */
import { graphql } from '../gql';

export const SpaceStatsQuery = graphql(`
  query SpaceStats($space: String!, $asOf: DateTime, $validAt: DateTime) {
    stats(space: $space, asOf: $asOf, validAt: $validAt) {
      space
      active
      flagged
      superseded
      historical
      openConflicts
      pendingChanges
      entities
      recentlyRetired
    }
  }
`);

export const FactChangedSubscription = graphql(`
  subscription LiveFactChanged($space: String!, $after: String) {
    factChanged(space: $space, after: $after) { cursor change message at }
  }
`);

export const ConflictOpenedSubscription = graphql(`
  subscription LiveConflictOpened($space: String!, $after: String) {
    conflictOpened(space: $space, after: $after) { cursor message at }
  }
`);

export const ConflictClosedSubscription = graphql(`
  subscription LiveConflictClosed($space: String!, $after: String) {
    conflictClosed(space: $space, after: $after) { cursor message at }
  }
`);

export const PendingChangedSubscription = graphql(`
  subscription LivePendingChanged($space: String!, $after: String) {
    pendingChanged(space: $space, after: $after) { cursor message at }
  }
`);
