package net.servicestack.client;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface DataMember {
    String Name() default "";
    int Order() default 0;
    boolean IsRequired() default false;
    boolean EmitDefaultValue() default false;
}
