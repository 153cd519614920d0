package dev.kubejobs.testkit;

/**
 * Receives the fake API server's object changes, for fake operators that react to them.
 *
 * <p>Implementations must be thread safe: changes made on different threads are reported on those
 * threads, possibly at the same time.
 */
@FunctionalInterface
public interface ResourceListener {

  /**
   * Handles one change; called after the change, outside the store's lock.
   *
   * @param event the change, carrying a copy of the object
   */
  void onEvent(ResourceEvent event);
}
