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
public class LoopbackDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    for (Connector connector : ((Server) field.get(proxy)).getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
  }
}
