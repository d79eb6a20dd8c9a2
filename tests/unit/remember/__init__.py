"""The pure reconcile step: rules, removal language, result strings."""
