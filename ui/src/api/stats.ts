import { graphql } from '../gql';

export const SpaceStatsQuery = graphql(`
  query SpaceStats($space: String!) {
    stats(space: $space) {
      space
      active
      flagged
      openConflicts
      pendingChanges
      recentlyRetired
    }
  }
`);

export const FactChangedSubscription = graphql(`
  subscription LiveFactChanged($space: String!) {
    factChanged(space: $space) { space change message factId subject value action at }
  }
`);

export const ConflictOpenedSubscription = graphql(`
  subscription LiveConflictOpened($space: String!) {
    conflictOpened(space: $space) { space conflictId message factId subject value at }
  }
`);
