"""The checkpoint format, read by the policy that plays from it: bounded zip reading, limits, fit to a table."""
