// Second: removing the pad logs it again (its before-image), past the rotation size.
MATCH (s:LogScrub {id: 'scrub'})
REMOVE s.pad
RETURN count(s) AS n
