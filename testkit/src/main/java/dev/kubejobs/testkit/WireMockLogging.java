package dev.kubejobs.testkit;

import com.github.tomakehurst.wiremock.common.Notifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends WireMock's messages to SLF4J at DEBUG (errors at WARN). Thread safe. */
final class WireMockLogging implements Notifier {

  private static final Logger LOG = LoggerFactory.getLogger("dev.kubejobs.testkit.wiremock");

  @Override
  public void info(String message) {
    LOG.debug("{}", message);
  }

  @Override
  public void error(String message) {
    LOG.warn("{}", message);
  }

  @Override
  public void error(String message, Throwable t) {
    LOG.warn("{}", message, t);
  }
}
