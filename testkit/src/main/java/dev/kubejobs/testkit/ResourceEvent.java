package dev.kubejobs.testkit;

import com.google.gson.JsonObject;

/**
 * One change of an object in the fake API server, as told to a {@link ResourceListener}.
 *
 * <p>The object is the listener's own copy; the event is otherwise immutable and thread safe.
 *
 * @param kind what happened
 * @param type the object's resource type
 * @param object a copy of the object after the change (for {@link Kind#DELETED}, its last state)
 */
public record ResourceEvent(Kind kind, ResourceType type, JsonObject object) {

  /** What happened to the object. */
  public enum Kind {
    /** The object was created. */
    ADDED,
    /** The object was changed, including getting a {@code deletionTimestamp}. */
    MODIFIED,
    /** The object was removed from the store. */
    DELETED
  }

  /**
   * Returns the object's namespace.
   *
   * @return {@code metadata.namespace}
   */
  public String namespace() {
    return object.getAsJsonObject("metadata").get("namespace").getAsString();
  }

  /**
   * Returns the object's name.
   *
   * @return {@code metadata.name}
   */
  public String name() {
    return object.getAsJsonObject("metadata").get("name").getAsString();
  }
}
