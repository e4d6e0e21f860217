/// Placeholder replaced by the look model.
public enum LookPlaceholder {}
