package net.servicestack.client;

import java.util.ArrayList;
import java.util.HashMap;

/** A stand-in for the client library's error status. */
public class ResponseStatus {
    public String errorCode = null;
    public String message = null;
    public String stackTrace = null;
    public ArrayList<ResponseError> errors = null;
    public HashMap<String, String> meta = null;
}
