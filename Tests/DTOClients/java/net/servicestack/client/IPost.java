package net.servicestack.client;

public interface IPost {}
