import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

// DynamoDB Local on 127.0.0.1 only. Its jar has no host option: its server (Jetty) listens on every
// interface, so anyone on the network could read and change the local data. This launcher builds
// the server from the same command-line options as the jar's own main class, binds its connectors
// to the loopback address, and starts it. Run with Java's source launcher (Java 11+, no javac step):
// java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* LoopbackDynamoDBLocal.java <the jar's options>
// With "-port 0" (which the jar refuses) the server binds a port the system chooses, and prints it
// on standard output once it listens: "LoopbackDynamoDBLocal listening on port N". Its caller never
// races another process for a port it chose first (test files start emulators at once).
public class LoopbackDynamoDBLocal {
  public static final String LISTENING = "LoopbackDynamoDBLocal listening on port ";

  public static void main(String[] args) throws Exception {
    String[] options = args.clone();
    boolean anyPort = false;
    for (int i = 0; i + 1 < options.length; i++) {
      if (options[i].equals("-port") && options[i + 1].equals("0")) {
        options[i + 1] = "8000";
        anyPort = true;
      }
    }
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(options);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Connector[] connectors = ((Server) field.get(proxy)).getConnectors();
    for (Connector connector : connectors) {
      ((ServerConnector) connector).setHost("127.0.0.1");
      if (anyPort) ((ServerConnector) connector).setPort(0);
    }
    proxy.start();
    for (Connector connector : connectors) {
      System.out.println(LISTENING + ((ServerConnector) connector).getLocalPort());
    }
    System.out.flush();
  }
}
