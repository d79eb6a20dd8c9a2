"""Export and import of whole memory spaces: a signed JSON Lines file out, and back in
either as it was (`restore`) or reconciled value by value in the order of its original
times (`replay`); importers bring in other systems' exports the same way."""
