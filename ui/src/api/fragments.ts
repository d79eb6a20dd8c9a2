/** The fact fields every view shows. */
import { graphql } from '../gql';

export const FactFields = graphql(`
  fragment FactFields on Fact {
    id
    factId
    space
    subject
    value
    scope
    kind
    timeRef
    status
    confidence
    source
    sourceRef
    raw
    category
    head
    relation
    tail
    validFrom
    validTo
    recordedAt
    retiredAt
    supersedes
    retracts
    eventId
    undoneBy
  }
`);
