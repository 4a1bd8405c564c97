// Placeholder until this module's tests land.
