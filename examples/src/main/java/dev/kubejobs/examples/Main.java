package dev.kubejobs.examples;

/** Entry point of the kubejobs example programs. */
public final class Main {
  private Main() {}

  /**
   * Runs the example programs.
   *
   * @param args command-line arguments
   */
  public static void main(String[] args) {
    System.out.println("kubejobs examples");
  }
}
